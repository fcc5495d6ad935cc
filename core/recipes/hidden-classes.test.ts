/**
 * Objects held per recipe stay in V8's fast-property mode (decision 0176): an object literal with its
 * own getter, or a copy given twenty keys one store at a time, becomes a dictionary-mode object, which
 * made every list entry and every warm-start doc slower to build and to read, and larger. V8 tells
 * which mode an object is in only under --allow-natives-syntax, so the check runs in a child process.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { fileURLToPath, pathToFileURL } from "node:url";
import { expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const url = (p: string) => JSON.stringify(pathToFileURL(path.join(root, p)).href);

const script = `
import { ListedRecipe } from ${url("core/recipes/listed-recipe.ts")};
import { headOf, lazyDoc, withIdentity } from ${url("core/recipes/store/lazy-doc.ts")};
import { emptyRecipeDoc } from ${url("core/recipes/doc.ts")};
const fast = new Function("o", "return %HasFastProperties(o)");
const doc = { ...emptyRecipeDoc("Soup"), id: "r1", owner: "u1", description: "Hot.",
  ingredients: [{ quantity: 2, unit: "cup", food: "stock", note: "", originalText: null }] };
const lazy = lazyDoc(JSON.parse(JSON.stringify(headOf(doc))), ["stock"], { source: null, offset: 0, split: 0, length: 0, crcIngredients: 0, crcSteps: 0 });
const copied = withIdentity(lazy, "r2", "u2");
const summary = { id: "r1", userId: "u1", householdId: "h1", groupId: "g1", name: "Soup", slug: "soup",
  image: null, recipeServings: 0, recipeYieldQuantity: 0, recipeYield: null, totalTime: null, prepTime: null,
  cookTime: null, performTime: null, description: "Hot.", recipeCategory: [], tags: [], tools: [], rating: null,
  orgURL: null, dateAdded: null, dateUpdated: null, createdAt: null, updatedAt: null, lastMade: null };
const entry = new ListedRecipe(summary, doc, { id: "h1", slug: "home", preferences: { privateHousehold: false } }, { id: "u1", username: "ann" }, []);
console.log(JSON.stringify({ lazy: fast(lazy), copied: fast(copied), copiedId: copied.id, entry: fast(entry), settings: fast(entry.settings), texts: entry.ingredientTexts, keys: Object.keys(entry).includes("ingredientTexts") }));
`;

it("keeps list entries and warm-start docs in V8's fast-property mode", async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--allow-natives-syntax", "--import", "tsx", "--input-type=module", "-e", script],
    { cwd: root },
  );
  expect(JSON.parse(stdout)).toEqual({
    lazy: true,
    copied: true,
    copiedId: "r2",
    entry: true,
    settings: true,
    texts: ["2 cup stock"],
    keys: false,
  });
}, 30_000);
