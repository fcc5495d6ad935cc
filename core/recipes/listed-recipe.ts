/**
 * One recipe as the list, filter and search read it (`RecipeIndexEntry`), as a class: its ingredient
 * texts are a getter on the prototype, read from the doc when asked (indexing the recipe, matching a
 * quoted phrase) rather than kept, since the joined lines were a copy of every ingredient's text in
 * memory (decision 0112). An object literal with its own getter is a dictionary-mode object in V8:
 * each of 10,000 entries was slow to build, larger, and slow to read on every list and search
 * (decision 0176). Fields are assigned in one order, so every entry has one hidden class.
 */
import type { RecipeDoc } from "./doc.js";
import type { RecipeIndexEntry } from "../query/attributes.js";
import { ingredientsOnce } from "./store/lazy-doc.js";
import {
  RECIPE_SETTING_KEYS,
  RECIPE_SETTINGS_DEFAULTS,
  type RecipeSettings,
  type RecipeSummary,
} from "../schemas/recipe.js";

type Summary = RecipeSummary;

/** One frozen settings object per combination (2^7 at most), shared by the entries that have it (decision 0186). */
const sharedSettings: (Readonly<RecipeSettings> | undefined)[] = [];

function settingsOf(st: Partial<RecipeSettings>): Readonly<RecipeSettings> {
  const D = RECIPE_SETTINGS_DEFAULTS;
  let bits = 0;
  for (let i = 0; i < RECIPE_SETTING_KEYS.length; i++)
    if (st[RECIPE_SETTING_KEYS[i]] ?? D[RECIPE_SETTING_KEYS[i]]) bits |= 1 << i;
  let shared = sharedSettings[bits];
  if (!shared) {
    // Made in one call, in the keys' order: every shared object has one hidden class (decision 0176).
    const pairs = RECIPE_SETTING_KEYS.map((k, i) => [k, (bits & (1 << i)) !== 0] as const);
    shared = sharedSettings[bits] = Object.freeze(Object.fromEntries(pairs) as RecipeSettings);
  }
  return shared;
}

export class ListedRecipe implements RecipeIndexEntry {
  readonly #doc: RecipeDoc;
  id: Summary["id"];
  userId: Summary["userId"];
  householdId: Summary["householdId"];
  groupId: Summary["groupId"];
  name: Summary["name"];
  slug: Summary["slug"];
  image: Summary["image"];
  recipeServings: Summary["recipeServings"];
  recipeYieldQuantity: Summary["recipeYieldQuantity"];
  recipeYield: Summary["recipeYield"];
  totalTime: Summary["totalTime"];
  prepTime: Summary["prepTime"];
  cookTime: Summary["cookTime"];
  performTime: Summary["performTime"];
  description: Summary["description"];
  recipeCategory: Summary["recipeCategory"];
  tags: Summary["tags"];
  tools: Summary["tools"];
  rating: Summary["rating"];
  orgURL: Summary["orgURL"];
  dateAdded: Summary["dateAdded"];
  dateUpdated: Summary["dateUpdated"];
  createdAt: Summary["createdAt"];
  updatedAt: Summary["updatedAt"];
  lastMade: Summary["lastMade"];
  settings: Readonly<RecipeSettings>;
  household: RecipeIndexEntry["household"];
  user: RecipeIndexEntry["user"];
  foods: RecipeIndexEntry["foods"];

  constructor(
    summary: Summary,
    doc: RecipeDoc,
    household: RecipeIndexEntry["household"],
    user: RecipeIndexEntry["user"],
    foods: RecipeIndexEntry["foods"],
  ) {
    this.#doc = doc;
    this.id = summary.id;
    this.userId = summary.userId;
    this.householdId = summary.householdId;
    this.groupId = summary.groupId;
    this.name = summary.name;
    this.slug = summary.slug;
    this.image = summary.image;
    this.recipeServings = summary.recipeServings;
    this.recipeYieldQuantity = summary.recipeYieldQuantity;
    this.recipeYield = summary.recipeYield;
    this.totalTime = summary.totalTime;
    this.prepTime = summary.prepTime;
    this.cookTime = summary.cookTime;
    this.performTime = summary.performTime;
    this.description = summary.description;
    this.recipeCategory = summary.recipeCategory;
    this.tags = summary.tags;
    this.tools = summary.tools;
    this.rating = summary.rating;
    this.orgURL = summary.orgURL;
    this.dateAdded = summary.dateAdded;
    this.dateUpdated = summary.dateUpdated;
    this.createdAt = summary.createdAt;
    this.updatedAt = summary.updatedAt;
    this.lastMade = summary.lastMade;
    this.settings = settingsOf(doc.settings);
    this.household = household;
    this.user = user;
    this.foods = foods;
  }

  /** Ingredient lines as the search index reads them: quantity, unit, food, note and original text. */
  get ingredientTexts(): string[] {
    return ingredientsOnce(this.#doc).map((i) =>
      [i.quantity ?? "", i.unit ?? "", i.food ?? "", i.note, i.originalText ?? ""].join(" ").trim(),
    );
  }
}
