/**
 * The input fuzz of hostile-input-contract.test.ts over a handful of routes described here by hand, so
 * that it runs where the Mealie contract is absent: the same hostile bodies, fields, query strings, path
 * parameters and file names, the same writes sent at once, and the same checks of every answer and of
 * the data folder afterwards (without the contract's shapes: a read must still answer 200).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { storeFixtures, type Stored } from "./support/fixtures.js";
import { Contract } from "./support/operations.js";
import { JSON_LIMIT } from "./support/variants.js";
import { attack } from "./support/attack.js";

const str = { type: "string" };
const num = { type: "number" };
const uuid = { type: "string", format: "uuid" };
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  properties,
  required,
});
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const q = (name: string, schema: unknown = str, required = false) => ({
  name,
  in: "query",
  required,
  schema,
});
const LIST_QUERY = ["page", "perPage", "orderBy", "orderDirection", "queryFilter", "search"].map((n) =>
  q(n, n.startsWith("page") || n === "perPage" ? { type: "integer" } : str),
);

/** The routes, in the OpenAPI shape the fuzz reads: what each takes, as Mealie documents it. */
const ROUTES = {
  paths: {
    "/api/recipes": {
      get: { parameters: LIST_QUERY },
      post: { requestBody: json(obj({ name: str }, ["name"])) },
    },
    "/api/recipes/{slug}": {
      get: { parameters: [] },
      put: {
        requestBody: json(
          obj({
            name: str,
            description: str,
            recipeServings: num,
            recipeYield: str,
            dateAdded: { type: "string", format: "date" },
            tags: { type: "array", items: obj({ name: str, slug: str }, ["name"]) },
            recipeIngredient: {
              type: "array",
              items: obj({ quantity: num, note: str, display: str, referenceId: uuid }),
            },
            recipeInstructions: { type: "array", items: obj({ text: str, title: str }) },
          }),
        ),
      },
    },
    "/api/recipes/{slug}/image": {
      put: {
        requestBody: {
          content: {
            "multipart/form-data": {
              schema: obj({ image: { type: "string", format: "binary" }, extension: str }, [
                "image",
                "extension",
              ]),
            },
          },
        },
      },
    },
    "/api/organizers/tags": {
      get: { parameters: LIST_QUERY },
      post: { requestBody: json(obj({ name: str }, ["name"])) },
    },
    "/api/organizers/tags/{item_id}": { get: {}, put: { requestBody: json(obj({ name: str }, ["name"])) } },
    "/api/foods/{item_id}": {
      get: {},
      put: {
        requestBody: json(
          obj(
            {
              name: str,
              description: str,
              labelId: uuid,
              aliases: { type: "array", items: obj({ name: str }) },
            },
            ["name"],
          ),
        ),
      },
    },
    "/api/households/shopping/items": {
      post: {
        requestBody: json(
          obj({ shoppingListId: uuid, note: str, quantity: num, foodId: uuid }, ["shoppingListId"]),
        ),
      },
    },
    "/api/households/mealplans": {
      get: {
        parameters: [
          q("start_date", { type: "string", format: "date" }),
          q("end_date", { type: "string", format: "date" }),
          ...LIST_QUERY,
        ],
      },
      post: {
        requestBody: json(
          obj(
            {
              date: { type: "string", format: "date" },
              entryType: { enum: ["dinner", "side"] },
              recipeId: uuid,
              title: str,
            },
            ["date"],
          ),
        ),
      },
    },
    "/api/households/cookbooks/{item_id}": {
      get: {},
      put: {
        requestBody: json(
          obj({ name: str, queryFilterString: str, position: { type: "integer" } }, ["name"]),
        ),
      },
    },
    "/api/recipes/timeline/events": {
      post: {
        requestBody: json(
          obj(
            {
              recipeId: uuid,
              subject: str,
              eventType: { enum: ["info", "comment"] },
              timestamp: { type: "string", format: "date-time" },
            },
            ["recipeId", "subject", "eventType"],
          ),
        ),
      },
    },
    "/api/recipes/timeline/events/{item_id}": { get: {} },
    "/api/auth/token": {
      post: {
        requestBody: {
          content: { "application/x-www-form-urlencoded": { schema: obj({ username: str, password: str }) } },
        },
      },
    },
  },
  components: { schemas: {} },
};

let t: TestServer;
let s: Stored;

beforeAll(async () => {
  t = await startTestServer({ maxUploadBytes: 2_000_000, maxJsonBody: JSON_LIMIT });
  s = await storeFixtures(t);
}, 60_000);
afterAll(async () => t?.close());

describe("hostile input against a handful of routes (no contract needed)", () => {
  it("answers every hostile request with a 4xx in Mealie's shape or a success, reads back what it accepts, and loses nothing", async () => {
    const contract = new Contract(ROUTES);
    const ops = contract.operations();
    const out = await attack({ t, s, contract, ops, validate: null });
    console.log(
      `hostile input: ${ops.length} operations, ${out.sent} requests (${out.spread.join("–")} each)`,
    );
    expect(out.problems.join("\n")).toBe("");
  }, 60_000);
});
