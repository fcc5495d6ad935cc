/**
 * Mealie's wire types, generated from the OpenAPI document that is Larder's API contract
 * (`npm run gen:wire` writes mealie-openapi.ts with openapi-typescript; never edit it by hand).
 * Presenters declare their output as `Wire<"SchemaName">`, so a field the contract lacks, or a missing
 * required one, is a compile error rather than a conformance failure.
 */
import type { components } from "./mealie-openapi.js";

export type WireSchemas = components["schemas"];
export type Wire<K extends keyof WireSchemas> = WireSchemas[K];
