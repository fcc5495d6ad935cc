/**
 * Data folders for the benchmark: a folder as `larder init` leaves it (group Home, household Family,
 * the seeded en-US foods and units, the first admin), plus `count` varied recipes written by the real
 * serializer, so every file is canonical and reads back to the same recipe. Deterministic for a seed,
 * so two runs (and two machines) measure the same bytes.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Larder } from "../core/larder.js";
import { loadConfig } from "../core/config.js";
import { consoleLogger } from "../core/log/logger.js";
import {
  emptyRecipeDoc,
  type DocIngredient,
  type DocStep,
  type RecipeDoc,
  type Vocabulary,
} from "../core/recipes/doc.js";
import { parseRecipeFile, serializeRecipeFile } from "../core/recipes/file/recipe-file.js";
import { prng } from "../core/search/synthetic-recipes.js";
import { fileSlug } from "../core/util/slug.js";
import { addMember } from "../core/testing/scratch-larder.js";

export interface GeneratedFolder {
  dir: string;
  count: number;
  bytes: number;
  /** A long-lived API token of the admin: the start-up probe needs no login (bcrypt) on its clock. */
  apiToken: string;
  /** Recipe slugs, in generation order (the hand-edit test picks from them). */
  slugs: string[];
  /** Every group (the first is Home, the admin's): a member's API token and the group's recipes. */
  groups: GeneratedGroup[];
}

export interface GeneratedGroup {
  slug: string;
  userId: string;
  apiToken: string;
  slugs: string[];
}

const ADJ =
  "easy quick classic spicy creamy crispy smoky tangy sweet savory roasted grilled baked fried braised slow-cooked fresh homemade rustic hearty light lemony garlicky herby cheesy golden sticky charred Sunday weeknight".split(
    " ",
  );
const DISHES =
  "soup stew salad curry pie tart cake cookies bread muffins pancakes waffles omelette frittata risotto lasagna casserole chili tacos burritos enchiladas sandwich burger pizza dumplings stir-fry roast gratin quiche crumble pudding brownies smoothie sauce dip salsa pesto hummus bowl skewers kebabs ragout goulash paella biryani ramen pho traybake".split(
    " ",
  );
const ACCENTED = [
  "Crème brûlée",
  "Ratatouille niçoise",
  "Crêpes Suzette",
  "Käsespätzle",
  "Pâté en croûte",
  "Smørrebrød",
  "Jalapeño poppers",
  "Bœuf bourguignon",
  "Gâteau basque",
  "Pão de queijo",
];
const TAGS =
  "dinner lunch breakfast brunch dessert snack party weeknight holiday christmas summer winter spring autumn picnic kids freezer make-ahead one-pot sheet-pan instant-pot air-fryer grill budget fancy comfort Indian Italian Mexican Thai French Greek Japanese vegan vegetarian gluten-free spicy".split(
    " ",
  );
const CATEGORIES =
  "Main Side Appetizer Dessert Drink Breakfast Soup Salad Bread Sauce Baking Vegetarian Seafood Poultry Meat Pasta".split(
    " ",
  );
const TOOLS = [
  "Oven",
  "Skillet",
  "Wok",
  "Blender",
  "Stand Mixer",
  "Whisk",
  "Grater",
  "Dutch Oven",
  "Slow Cooker",
  "Pressure Cooker",
  "Food Processor",
  "Sheet Pan",
  "Thermometer",
  "Rolling Pin",
];
const NOTES = [
  "chopped",
  "finely diced",
  "at room temperature",
  "divided",
  "to taste",
  "softened",
  "thinly sliced",
  "peeled",
  "rinsed and drained",
  "plus more for serving",
  "optional",
  "minced",
  "zested and juiced",
];
const VERBS = [
  "Heat",
  "Stir in",
  "Whisk together",
  "Fold in",
  "Simmer",
  "Season",
  "Roast",
  "Bake",
  "Chop",
  "Toss",
  "Sear",
  "Drain",
  "Blend",
  "Rest",
  "Serve",
];
const FILLER =
  "until golden and fragrant, about five minutes, stirring now and then so nothing catches on the bottom of the pan. Taste and adjust the seasoning; the sauce should coat the back of a spoon. Keep warm while you finish the rest.".split(
    " ",
  );
const SECTIONS = ["For the sauce", "For the topping", "Marinade", "Dressing", "To serve"];

/**
 * Open the folder as `larder init` would, then write the recipes; replaces anything in `dir`. With
 * `groups` > 1, groups "Club 2" … are added, each with a member and an API token, and the recipes are
 * dealt round-robin (a club or a family of households on one server).
 */
export async function generateFolder(
  dir: string,
  count: number,
  seed = 1,
  groups = 1,
): Promise<GeneratedFolder> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const larder = await Larder.open(loadConfig({}, { dataDir: dir, bcryptRounds: 4 }), {
    log: consoleLogger("silent"),
    watch: false,
  });
  let vocab: Vocabulary;
  const made: GeneratedGroup[] = [];
  try {
    const admin = larder.users.all().find((u) => u.admin);
    if (!admin) throw new Error("bench: the new data folder has no admin");
    vocab = larder.recipes.lookupsFor("home").vocabulary;
    const apiToken = (await larder.auth.createApiToken(admin.id, "bench", "bench")).token;
    made.push({ slug: "home", userId: admin.id, apiToken, slugs: [] });
    for (let g = 2; g <= groups; g++) {
      const group = await larder.groups.createGroup(`Club ${g}`);
      const user = await addMember(larder, group, `member${g}`);
      const token = (await larder.auth.createApiToken(user.id, "bench", "bench")).token;
      made.push({ slug: group.slug, userId: user.id, apiToken: token, slugs: [] });
    }
  } finally {
    await larder.close();
  }
  const rnd = prng(seed * 7919 + count);
  const taken = new Set<string>();
  const slugs: string[] = [];
  let bytes = 0;
  const pending: Promise<void>[] = [];
  for (const g of made) await mkdir(join(dir, "groups", g.slug, "recipes"), { recursive: true });
  for (let i = 0; i < count; i++) {
    const group = made[i % made.length];
    const doc = recipeDoc(rnd, vocab, group.userId, i);
    let slug = fileSlug(doc.name);
    for (let n = 1; taken.has(slug); n++) {
      doc.name = `${doc.name.replace(/ \(\d+\)$/, "")} (${n})`;
      slug = fileSlug(doc.name);
    }
    taken.add(slug);
    slugs.push(slug);
    group.slugs.push(slug);
    const text = serializeRecipeFile(doc, vocab);
    // Canonical means: read and written back, the same bytes. Checked on a sample, not all (speed).
    if (i % 250 === 0 && serializeRecipeFile(parseRecipeFile(text, vocab), vocab) !== text) {
      throw new Error(`bench: generated recipe ${slug} is not canonical`);
    }
    bytes += Buffer.byteLength(text);
    pending.push(writeFile(join(dir, "groups", group.slug, "recipes", `${slug}.md`), text));
    if (pending.length >= 64) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending);
  return { dir, count, bytes, apiToken: made[0].apiToken, slugs: made[0].slugs, groups: made };
}

function uuid(rnd: () => number): string {
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join("");
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${"89ab"[Math.floor(rnd() * 4)]}${hex(3)}-${hex(12)}`;
}

function recipeDoc(rnd: () => number, vocab: Vocabulary, owner: string, i: number): RecipeDoc {
  const pick = <T>(l: readonly T[]): T => l[Math.floor(rnd() * l.length)];
  const some = <T>(l: readonly T[], min: number, max: number): T[] => [
    ...new Set(Array.from({ length: min + Math.floor(rnd() * (max - min + 1)) }, () => pick(l))),
  ];
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  const foods = vocab.foods.map((f) => f.name);
  const main = pick(foods);
  const name =
    i % 53 === 0
      ? `${pick(ACCENTED)} ${pick(ADJ)}`
      : `${cap(pick(ADJ))} ${main}${rnd() < 0.35 ? ` and ${pick(foods)}` : ""} ${pick(DISHES)}`;
  const ingredients: DocIngredient[] = [];
  const nIng = 8 + Math.floor(rnd() * 8);
  for (let k = 0; k < nIng; k++)
    ingredients.push(
      ingredient(
        rnd,
        vocab,
        k === 0 ? main : pick(foods),
        k > 0 && k % 6 === 0 && rnd() < 0.5 ? pick(SECTIONS) : null,
      ),
    );
  const steps: DocStep[] = [];
  const nSteps = 4 + Math.floor(rnd() * 7);
  for (let k = 0; k < nSteps; k++) {
    const words = Array.from({ length: 12 + Math.floor(rnd() * 30) }, () => pick(FILLER)).join(" ");
    const refs =
      rnd() < 0.5
        ? [...new Set([Math.floor(rnd() * nIng), Math.floor(rnd() * nIng)])].sort((a, b) => a - b)
        : [];
    steps.push({
      title: k === 0 && rnd() < 0.2 ? "Prepare" : null,
      summary: rnd() < 0.15 ? pick(VERBS) : null,
      text: `${pick(VERBS)} the ${ingredients[Math.floor(rnd() * nIng)].food ?? "mixture"} ${words}.`,
      ingredientRefs: refs,
    });
  }
  const added = new Date(Date.UTC(2021, 0, 1) + Math.floor(rnd() * 4 * 365 * 86400e3));
  const updated = new Date(added.getTime() + Math.floor(rnd() * 200 * 86400e3));
  const stamp = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");
  const prep = 5 + Math.floor(rnd() * 40);
  return {
    ...emptyRecipeDoc(name),
    id: uuid(rnd),
    owner,
    description: `${cap(pick(ADJ))} and ${pick(ADJ)}: ${Array.from({ length: 10 + Math.floor(rnd() * 25) }, () => pick(rnd() < 0.3 ? foods : FILLER)).join(" ")}.`,
    recipeServings: 1 + Math.floor(rnd() * 8),
    recipeYield: rnd() < 0.5 ? `${2 + Math.floor(rnd() * 10)} servings` : null,
    prepTime: `${prep} minutes`,
    totalTime: rnd() < 0.7 ? `${prep + 10 + Math.floor(rnd() * 120)} minutes` : null,
    categories: some(CATEGORIES, 1, 2),
    tags: some(TAGS, 0, 4),
    tools: some(TOOLS, 0, 2),
    orgURL: rnd() < 0.3 ? `https://example.org/recipes/${i}` : null,
    nutrition: rnd() < 0.3 ? { calories: String(150 + Math.floor(rnd() * 700)) } : {},
    settings: rnd() < 0.5 ? { public: true } : {},
    dateAdded: stamp(added),
    dateUpdated: stamp(updated),
    lastMade: rnd() < 0.4 ? stamp(updated) : null,
    ingredients,
    instructions: steps,
    notes:
      rnd() < 0.3
        ? [{ title: "Storage", text: `Keeps ${1 + Math.floor(rnd() * 5)} days in the fridge.` }]
        : [],
  };
}

function ingredient(rnd: () => number, vocab: Vocabulary, food: string, title: string | null): DocIngredient {
  const base: DocIngredient = {
    title,
    quantity: null,
    quantityMax: null,
    unit: null,
    food: null,
    note: "",
    originalText: null,
    referencedRecipe: null,
  };
  const r = rnd();
  // Mostly structured lines; some note-only ones ("salt to taste"), as real recipes have.
  if (r < 0.08) return { ...base, note: `${food} to taste` };
  const quantity = [0.25, 0.5, 1, 1, 1.5, 2, 2, 3, 4, 200, 400][Math.floor(rnd() * 11)];
  const unit = rnd() < 0.75 ? vocab.units[Math.floor(rnd() * vocab.units.length)].name : null;
  const quantityMax = rnd() < 0.05 && quantity >= 1 && quantity < 100 ? quantity + 1 : null;
  return {
    ...base,
    quantity,
    quantityMax,
    unit,
    food,
    note: rnd() < 0.35 ? NOTES[Math.floor(rnd() * NOTES.length)] : "",
  };
}
