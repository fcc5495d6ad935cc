/**
 * Validates responses against the Mealie OpenAPI contract (../shared/fixtures/mealie-openapi), with every
 * declared property required: the schemas mark few as required, but Mealie sends them all.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { requireDependency, runsWith } from "../../core/testing/needs.js";

export const SHARED = resolve(process.cwd(), "..", "shared");
export const CONTRACT_PATH = join(SHARED, "fixtures", "mealie-openapi", "openapi-v3.19.2.json");
const present = existsSync(CONTRACT_PATH);
/**
 * Whether responses are checked against the contract: when it is there, and always under CI=true,
 * where a missing contract fails the first check (ARCHITECTURE §8) instead of passing it unchecked.
 */
export const hasContract = runsWith(present, `the Mealie OpenAPI contract at ${CONTRACT_PATH}`);

type Json = Record<string, unknown>;

/** Properties Mealie really leaves out: FastAPI's 422 items carry `ctx` only when Pydantic gives one. */
const OPTIONAL: Record<string, string[]> = { ValidationError: ["ctx"] };

function strictify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictify);
  if (!node || typeof node !== "object") return node;
  const obj: Json = {};
  for (const [k, v] of Object.entries(node as Json)) obj[k] = strictify(v);
  if (obj.type === "object" && obj.properties && typeof obj.properties === "object") {
    const optional = OPTIONAL[obj.title as string] ?? [];
    obj.required = Object.keys(obj.properties as Json).filter((k) => !optional.includes(k));
  }
  if (typeof obj.$ref === "string")
    obj.$ref = (obj.$ref as string).replace("#/components/schemas/", "#/$defs/");
  return obj;
}

let ajv: Ajv2020 | null = null;
const cache = new Map<string, ValidateFunction>();

function validatorFor(schemaName: string): ValidateFunction {
  const hit = cache.get(schemaName);
  if (hit) return hit;
  if (!ajv) {
    requireDependency(present, `the Mealie OpenAPI contract at ${CONTRACT_PATH}`);
    const doc = JSON.parse(readFileSync(CONTRACT_PATH, "utf8")) as { components: { schemas: Json } };
    ajv = new Ajv2020({ strict: false, allErrors: true });
    const addFormats =
      (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addFormat("uuid4", /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i);
    // The contract's `time` is pydantic's: Mealie sends a naive "HH:MM:SS[.ffffff]" (webhooks' UTC
    // scheduledTime), which JSON Schema's RFC 3339 `time` (offset required) would refuse.
    ajv.addFormat("time", /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})?$/i);
    ajv.addSchema({ $id: "contract", $defs: strictify(doc.components.schemas) });
  }
  const v = ajv.compile({ $ref: `contract#/$defs/${schemaName}` });
  cache.set(schemaName, v);
  return v;
}

/** Throws with a readable list of violations when `data` does not match the contract's schema. */
export function assertContract(schemaName: string, data: unknown): void {
  const v = validatorFor(schemaName);
  if (!v(data)) {
    const errors = (v.errors ?? [])
      .slice(0, 10)
      .map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
    throw new Error(`response does not match ${schemaName}:\n  ${errors.join("\n  ")}`);
  }
}

/** Every operation of the contract, in its order: a new contract operation is walked without a code change. */
export interface ContractOperation {
  method: string;
  path: string;
  operationId: string;
  op: {
    parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Json }>;
    requestBody?: { content: Record<string, { schema: Json }> };
    responses: Record<string, { content?: Record<string, { schema?: Json }> }>;
  };
}

export function contractOperations(): ContractOperation[] {
  requireDependency(present, `the Mealie OpenAPI contract at ${CONTRACT_PATH}`);
  const doc = JSON.parse(readFileSync(CONTRACT_PATH, "utf8")) as {
    paths: Record<string, Record<string, ContractOperation["op"] & { operationId: string }>>;
  };
  const ops: ContractOperation[] = [];
  for (const [path, methods] of Object.entries(doc.paths))
    for (const [m, op] of Object.entries(methods))
      ops.push({ method: m.toUpperCase(), path, operationId: op.operationId, op });
  return ops;
}

/** The contract's component schemas, as the contract writes them (for building request bodies). */
export function contractSchemas(): Json {
  requireDependency(present, `the Mealie OpenAPI contract at ${CONTRACT_PATH}`);
  return (JSON.parse(readFileSync(CONTRACT_PATH, "utf8")) as { components: { schemas: Json } }).components
    .schemas;
}

/** Throws when `data` does not match an inline schema of the contract (a response's own array or `$ref`). */
export function assertContractSchema(schema: Json, data: unknown, label: string): void {
  const key = JSON.stringify(schema);
  let v = cache.get(key);
  if (!v) {
    validatorFor("SuccessResponse"); // builds the shared Ajv with the contract's components
    const inline = JSON.parse(JSON.stringify(strictify(schema)).replaceAll('"#/$defs/', '"contract#/$defs/'));
    v = ajv!.compile(inline as Json);
    cache.set(key, v);
  }
  if (!v(data)) {
    const errors = (v.errors ?? [])
      .slice(0, 10)
      .map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
    throw new Error(`response does not match ${label}:\n  ${errors.join("\n  ")}`);
  }
}
