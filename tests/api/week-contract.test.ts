/** Every contract operation under meal plans, rules, shopping lists and items, once, in the contract's shape. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { newRecipe } from "../support/members.js";

let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});
afterAll(async () => t?.close());

async function call(
  method: string,
  path: string,
  schema: string | null,
  status: number,
  json?: unknown,
): Promise<Record<string, unknown>> {
  const res = await t.api(path, { method, token, json });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text.slice(0, 300)}`).toBe(status);
  const body = JSON.parse(text) as Record<string, unknown>;
  if (schema && hasContract) assertContract(schema, body);
  return body;
}

describe("the week's contract, operation by operation", () => {
  it.skipIf(!hasContract && process.env.CI !== "true")(
    "answers every meal plan, rule, list and item operation in the contract's shape",
    async () => {
      const recipe = await newRecipe(t, token, "Contract Curry", {
        recipeIngredient: [{ note: "rice", quantity: 2 }],
      });
      const MP = "/api/households/mealplans";
      const entry = await call("POST", MP, "ReadPlanEntry", 201, { date: "2031-06-01", recipeId: recipe.id });
      await call("GET", `${MP}?start_date=2031-06-01&end_date=2031-06-07`, "PlanEntryPagination", 200);
      const today = await t.api(`${MP}/today`, { token });
      expect(Array.isArray(await today.json())).toBe(true);
      await call("GET", `${MP}/${entry.id}`, "ReadPlanEntry", 200);
      await call("PUT", `${MP}/${entry.id}`, "ReadPlanEntry", 200, { ...entry, entryType: "side" });
      await call("POST", `${MP}/random`, "ReadPlanEntry", 200, { date: "2031-06-02" });
      await call("DELETE", `${MP}/${entry.id}`, "ReadPlanEntry", 200);

      const rule = await call("POST", `${MP}/rules`, "PlanRulesOut", 201, {
        day: "friday",
        entryType: "dinner",
        queryFilterString: "",
      });
      await call("GET", `${MP}/rules`, "PlanRulesPagination", 200);
      await call("GET", `${MP}/rules/${rule.id}`, "PlanRulesOut", 200);
      await call("PUT", `${MP}/rules/${rule.id}`, "PlanRulesOut", 200, { day: "sunday" });
      await call("DELETE", `${MP}/rules/${rule.id}`, "PlanRulesOut", 200);

      const L = "/api/households/shopping/lists";
      const I = "/api/households/shopping/items";
      const list = await call("POST", L, "ShoppingListOut", 201, { name: "Contract" });
      await call("GET", L, "ShoppingListPagination", 200);
      await call("GET", `${L}/${list.id}`, "ShoppingListOut", 200);
      await call("PUT", `${L}/${list.id}`, "ShoppingListOut", 200, { ...list, name: "Contract 2" });
      await call("PUT", `${L}/${list.id}/label-settings`, "ShoppingListOut", 200, list.labelSettings);
      await call("POST", `${L}/${list.id}/recipe/${recipe.id}`, "ShoppingListOut", 200, {
        recipeIncrementQuantity: 1,
      });
      await call("POST", `${L}/${list.id}/recipe`, "ShoppingListOut", 200, [{ recipeId: recipe.id }]);
      await call("POST", `${L}/${list.id}/recipe/${recipe.id}/delete`, "ShoppingListOut", 200, {
        recipeDecrementQuantity: 2,
      });

      const one = await call("POST", I, "ShoppingListItemsCollectionOut", 201, {
        shoppingListId: list.id,
        note: "one",
      });
      const many = await call("POST", `${I}/create-bulk`, "ShoppingListItemsCollectionOut", 201, [
        { shoppingListId: list.id, note: "two" },
        { shoppingListId: list.id, note: "three" },
      ]);
      const item = (one.createdItems as Record<string, unknown>[])[0];
      await call(
        "GET",
        `${I}?queryFilter=shoppingListId=${list.id}&orderBy=position&orderDirection=asc&perPage=-1`,
        "ShoppingListItemPagination",
        200,
      );
      await call("GET", `${I}/${item.id}`, "ShoppingListItemOut-Output", 200);
      await call("PUT", `${I}/${item.id}`, "ShoppingListItemsCollectionOut", 200, { ...item, checked: true });
      await call(
        "PUT",
        I,
        "ShoppingListItemsCollectionOut",
        200,
        (many.createdItems as Record<string, unknown>[]).map((x, i) => ({ ...x, position: 5 - i })),
      );
      const [two, three] = many.createdItems as Record<string, unknown>[];
      await call("DELETE", `${I}?ids=${two.id}&ids=${three.id}`, "SuccessResponse", 200);
      await call("DELETE", `${I}/${item.id}`, "SuccessResponse", 200);
      await call("DELETE", `${L}/${list.id}`, "ShoppingListOut", 200);
    },
  );
});
