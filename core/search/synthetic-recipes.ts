/**
 * Deterministic synthetic recipes for the search benchmark and performance tests: realistic word
 * frequencies (a few hundred common cooking words, accented names, and a long tail of rare words).
 */
import type { RecipeIndexEntry } from "../query/attributes.js";

const FOODS =
  "chicken beef pork lamb salmon tuna shrimp tofu egg eggs butter milk cream cheese parmesan mozzarella feta yogurt flour sugar salt pepper garlic onion shallot leek carrot celery potato tomato tomatoes zucchini eggplant spinach kale lettuce cabbage broccoli cauliflower mushroom mushrooms pea peas bean beans lentil lentils chickpea rice pasta noodle noodles bread oats quinoa corn apple banana lemon lime orange strawberry raspberry blueberry cherry peach pear mango pineapple coconut almond walnut pecan hazelnut peanut cashew chocolate cocoa vanilla cinnamon nutmeg ginger cumin paprika oregano basil thyme rosemary parsley cilantro dill mint honey maple vinegar oil olive soy sauce stock broth wine beer mustard mayonnaise ketchup bacon ham sausage chorizo anchovy cod halibut crab lobster scallop squid avocado cucumber radish beet turnip squash pumpkin sweet fennel artichoke asparagus olive caper raisin date fig apricot plum gelatin yeast cornstarch".split(
    " ",
  );
const DISHES =
  "soup stew salad curry pie tart cake cookie cookies bread muffin pancake waffle omelette frittata risotto lasagna casserole chili tacos burrito enchilada sandwich burger pizza dumpling dumplings stir-fry roast gratin quiche crumble pudding brownie brownies smoothie sauce dip salsa pesto hummus bowl skewers kebab ragout goulash paella biryani ramen pho".split(
    " ",
  );
const ADJ =
  "easy quick classic spicy creamy crispy smoky tangy sweet savory roasted grilled baked fried braised slow-cooked fresh homemade rustic hearty light healthy vegan vegetarian gluten-free lemony garlicky herby cheesy golden".split(
    " ",
  );
const ACCENTED = [
  "Crème brûlée",
  "Rátàtôuile",
  "Crêpes Suzette",
  "Käsespätzle",
  "Pâté en croûte",
  "Smørrebrød",
  "Jalapeño poppers",
  "Façon grand-mère",
  "Bœuf bourguignon",
  "Gâteau basque",
];
const TAGS =
  "dinner lunch breakfast brunch dessert snack party weeknight holiday christmas summer winter spring autumn picnic kids freezer make-ahead one-pot sheet-pan instant-pot air-fryer grill budget fancy comfort".split(
    " ",
  );
const CATEGORIES =
  "Main Side Appetizer Dessert Drink Breakfast Soup Salad Bread Sauce Baking Vegetarian Seafood Poultry Meat Pasta".split(
    " ",
  );
const TOOLS =
  "oven skillet wok blender mixer whisk grater dutch-oven slow-cooker pressure-cooker food-processor sheet-pan thermometer rolling-pin".split(
    " ",
  );

/** A small seeded PRNG (xorshift32), so runs are comparable. */
export function prng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

function uuidFrom(n: number, salt: number): string {
  const hex = (n * 2654435761 + salt).toString(16).padStart(12, "0").slice(-12);
  return `${salt.toString(16).padStart(8, "0").slice(-8)}-0000-4000-8000-${hex}`;
}

/** `count` synthetic recipe index entries, the same for the same seed. */
export function syntheticRecipes(count: number, seed = 42): RecipeIndexEntry[] {
  const rnd = prng(seed);
  const pick = <V>(l: readonly V[]): V => l[Math.floor(rnd() * l.length)];
  const syll = [
    "ka",
    "lo",
    "mi",
    "ra",
    "tun",
    "bel",
    "sor",
    "vin",
    "que",
    "dra",
    "pol",
    "zet",
    "mar",
    "gu",
    "fen",
  ];
  const rare = (): string => Array.from({ length: 2 + Math.floor(rnd() * 3) }, () => pick(syll)).join("");
  const out: RecipeIndexEntry[] = [];
  const base = Date.UTC(2020, 0, 1);
  for (let i = 0; i < count; i++) {
    const name =
      i % 97 === 0
        ? `${pick(ACCENTED)} ${i}`
        : `${pick(ADJ)} ${pick(FOODS)} ${rnd() < 0.4 ? `and ${pick(FOODS)} ` : ""}${pick(DISHES)}`;
    const words = Array.from({ length: 15 + Math.floor(rnd() * 25) }, () =>
      rnd() < 0.1 ? rare() : pick(rnd() < 0.5 ? FOODS : ADJ),
    );
    const ingredients = Array.from(
      { length: 6 + Math.floor(rnd() * 8) },
      () => `${1 + Math.floor(rnd() * 4)} cups ${pick(ADJ)} ${pick(FOODS)}`,
    );
    const foods = ingredients
      .slice(0, 4)
      .map((line, k) => ({ id: uuidFrom(k + (i % 50), 7), name: line.split(" ").pop() ?? "" }));
    const org = (l: string[], n: number, salt: number) =>
      Array.from({ length: n }, () => pick(l)).map((nm) => ({
        id: uuidFrom(l.indexOf(nm), salt),
        name: nm,
        slug: nm.toLowerCase(),
        groupId: uuidFrom(0, 1),
      }));
    const created = new Date(base + Math.floor(rnd() * 4 * 365 * 86400e3)).toISOString();
    out.push({
      id: uuidFrom(i, 3),
      userId: uuidFrom(i % 5, 4),
      householdId: uuidFrom(i % 2, 5),
      groupId: uuidFrom(0, 1),
      name,
      slug: `recipe-${i}`,
      image: null,
      recipeServings: 1 + Math.floor(rnd() * 8),
      recipeYieldQuantity: 0,
      recipeYield: null,
      totalTime: null,
      prepTime: null,
      cookTime: null,
      performTime: null,
      description: words.join(" "),
      recipeCategory: org(CATEGORIES, 1 + Math.floor(rnd() * 2), 8),
      tags: org(TAGS, Math.floor(rnd() * 4), 9),
      tools: org(TOOLS, Math.floor(rnd() * 3), 10).map((t) => ({ ...t, householdsWithTool: [] })),
      rating: rnd() < 0.3 ? null : 1 + Math.floor(rnd() * 5),
      orgURL: null,
      dateAdded: created.slice(0, 10),
      dateUpdated: created,
      createdAt: created,
      updatedAt: created,
      lastMade: rnd() < 0.5 ? null : created,
      settings: {
        public: rnd() < 0.5,
        showNutrition: false,
        showAssets: false,
        landscapeView: false,
        disableComments: true,
        locked: false,
        disableAmount: false,
      },
      household: { id: uuidFrom(i % 2, 5), preferences: { privateHousehold: false } },
      user: { id: uuidFrom(i % 5, 4), username: `user${i % 5}` },
      foods,
      ingredientTexts: ingredients,
    });
  }
  return out;
}
