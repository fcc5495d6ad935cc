/**
 * The recipe page's data, built on the server from core's wire Recipe: Markdown rendered and sanitised
 * here (spec §9), so markdown-it and sanitize-html never reach the browser, and the ingredients split
 * into parts the browser can scale without ever building HTML from user text.
 */
import { redirect, type AppLoadContext } from "react-router";
import type { Recipe } from "../../../core/schemas/recipe.js";
import { coreCall } from "./errors.server.js";
import { NUTRITION_ROWS, withUnit } from "./format.js";
import { recipeMenuItems } from "./pure-core.js";
import { groupSlugOf, resolveGroupViewer, type UserActor } from "./session.server.js";
import { recipeJsonLd, recipeOpenGraph } from "./structured-data.server.js";
import { sanitizeIngredientText as sanitizeOnce } from "./markdown.js";
import { rangeMaxFromDisplay, type ScalableIngredient } from "./scale.js";
import { memoText, renderMarkdownMemo as renderMarkdown } from "./memo-text.server.js";

import type {
  ChipLink,
  CommentView,
  EditVocabulary,
  RecipePageData,
  RecipeView,
  ViewIngredient,
} from "./recipe-types.js";

// Each distinct text rendered once (memo-text.server.ts).
const sanitizeIngredientText = memoText(sanitizeOnce);

const chips = (list: { name: string; slug: string }[]): ChipLink[] =>
  list.map(({ name, slug }) => ({ name, slug }));

function ingredientOf(
  ing: Recipe["recipeIngredient"][number],
  i: number,
  written: string | null,
): ViewIngredient {
  const html = sanitizeIngredientText(ing.display || ing.note || ing.originalText || "").trim();
  const parts: ScalableIngredient | null = ing.disableAmount
    ? null
    : {
        quantity: ing.quantity,
        quantityMax: rangeMaxFromDisplay(ing.display, ing.quantity),
        unit: ing.unit && {
          name: ing.unit.name,
          pluralName: ing.unit.pluralName,
          abbreviation: ing.unit.abbreviation,
          pluralAbbreviation: ing.unit.pluralAbbreviation,
          useAbbreviation: ing.unit.useAbbreviation,
          fraction: ing.unit.fraction,
        },
        food: ing.food && { name: ing.food.name, pluralName: ing.food.pluralName },
        recipe: ing.referencedRecipe && { name: ing.referencedRecipe.name, slug: ing.referencedRecipe.slug },
        noteHtml: sanitizeIngredientText(ing.note).trim(),
      };
  return { key: ing.referenceId || String(i), title: ing.title || null, parts, html, written };
}

/** The page's view of a recipe: everything rendered, nothing of core's internals. */
/** `written`: each ingredient's line as its author wrote it, where core knows it (members' pages). */
export function recipeView(recipe: Recipe, written: readonly (string | null)[] = []): RecipeView {
  const times: RecipeView["times"] = [];
  if (recipe.totalTime) times.push({ key: "total", value: recipe.totalTime });
  if (recipe.prepTime) times.push({ key: "prep", value: recipe.prepTime });
  const cook = recipe.performTime || recipe.cookTime;
  if (cook) times.push({ key: "perform", value: cook });

  const nutrition = NUTRITION_ROWS.flatMap(([key, , unit]) => {
    const v = recipe.nutrition?.[key];
    return v != null && String(v).trim() ? [{ key, value: withUnit(String(v), unit) }] : [];
  });

  return {
    id: recipe.id,
    slug: recipe.slug,
    name: recipe.name,
    image: recipe.image,
    descriptionHtml: renderMarkdown(recipe.description),
    orgURL: recipe.orgURL && /^https?:\/\//i.test(recipe.orgURL) ? recipe.orgURL : null,
    times,
    servings: recipe.recipeServings > 0 ? recipe.recipeServings : 0,
    yieldQuantity: recipe.recipeYieldQuantity > 0 ? recipe.recipeYieldQuantity : 0,
    yieldUnit: recipe.recipeYield?.trim() || null,
    categories: chips(recipe.recipeCategory),
    tags: chips(recipe.tags),
    tools: chips(recipe.tools),
    ingredients: recipe.recipeIngredient
      .map((ing, i) => ingredientOf(ing, i, written[i] ?? null))
      .filter((ing) => ing.html || ing.title || ing.parts?.quantity),
    steps: recipe.recipeInstructions.map((s, i) => ({
      key: s.id || String(i),
      title: s.title || null,
      summary: s.summary || null,
      html: renderMarkdown(s.text),
      refs: s.ingredientReferences.map((r) => r.referenceId),
    })),
    notes: recipe.notes.map((n, i) => ({ key: String(i), title: n.title, html: renderMarkdown(n.text) })),
    nutrition,
    rating: recipe.rating,
    settings: {
      showNutrition: recipe.settings.showNutrition,
      disableAmount: recipe.settings.disableAmount,
      disableComments: recipe.settings.disableComments,
      locked: recipe.settings.locked,
    },
    updatedAt: recipe.updatedAt ?? recipe.dateUpdated,
  };
}

/** The group's names for the editor's pickers (units, foods, organizers). */
function vocabularyOf(context: AppLoadContext, groupSlug: string): EditVocabulary {
  return context.larder.directory.vocabularyNames(groupSlug);
}

function commentsOf(context: AppLoadContext, actor: UserActor, slug: string): CommentView[] {
  return context.larder.comments.ofRecipe(actor, slug).map((c) => ({
    id: c.id,
    text: c.text,
    userName: c.user.fullName || c.user.username || "",
    createdAt: c.createdAt,
    mine: c.userId === actor.user.id || actor.user.admin,
  }));
}

/**
 * The recipe page for whoever is looking (spec §6): a member of the group reads through core's recipe
 * service and gets the restricted controls; anyone else reads a public recipe of a public group through
 * the explore service, read-only. Reached by id or an old slug, it redirects to the canonical address.
 */
export async function loadRecipePage(
  request: Request,
  context: AppLoadContext,
  params: { groupSlug?: string; slug?: string },
): Promise<RecipePageData> {
  const viewer = await resolveGroupViewer(request, context, params.groupSlug);
  const { groupSlug, ownGroup } = viewer;
  const actor = ownGroup ? viewer.actor : null;
  const slug = params.slug ?? "";
  const recipe = await coreCall(() =>
    actor ? context.larder.recipes.get(actor, slug) : context.larder.explore.recipe(groupSlug, slug),
  );
  const url = new URL(request.url);
  const path = `/g/${groupSlug}/r/${encodeURIComponent(recipe.slug)}`;
  if (recipe.slug !== slug) throw redirect(path + url.search);

  const user = viewer.actor
    ? { ...viewer.actor.user, groupSlug: groupSlugOf(context, viewer.actor.user) ?? "" }
    : null;
  const menu = recipeMenuItems(user, groupSlug, recipe, {
    householdPrefsOf: (id: string) => context.larder.directory.householdById(id)?.household.preferences,
  });
  const own = actor
    ? context.larder.ratings.forSelf(actor, false).find((r) => r.recipeId === recipe.id)
    : undefined;
  const editing = url.searchParams.get("edit") === "true" && menu.edit;
  const { comments: _drop, ...wire } = recipe;
  const meta = { recipe, origin: url.origin, url: url.origin + path };
  return {
    groupSlug,
    recipe: recipeView(
      recipe,
      actor ? context.larder.recipes.ingredientLinesAsWritten(actor, recipe.slug) : [],
    ),
    ownGroup,
    viewerId: viewer.actor?.user.id ?? null,
    menu,
    me: actor ? { rating: own?.rating ?? null, isFavorite: own?.isFavorite ?? false } : null,
    comments: actor && !recipe.settings.disableComments ? commentsOf(context, actor, recipe.slug) : null,
    actions: actor
      ? context.larder.recipeActions
          .list(actor, { perPage: -1, orderBy: "title", orderDirection: "asc" })
          .items.map(({ id, title, actionType, url: u }) => ({ id, title, actionType, url: u }))
      : [],
    edit: editing
      ? { recipe: wire as Record<string, unknown>, vocabulary: vocabularyOf(context, groupSlug) }
      : null,
    ld: recipeJsonLd(meta),
    og: recipeOpenGraph(meta),
  };
}

/**
 * The public page of a share link (spec §2): no login. An unknown or expired token, or one whose recipe
 * is gone, is "page not found", as is a token shown under another group's address.
 */
export async function loadSharedRecipePage(
  request: Request,
  context: AppLoadContext,
  params: { groupSlug?: string; tokenId?: string },
): Promise<RecipePageData> {
  const recipe = await coreCall(() => context.larder.shares.publicRecipe(params.tokenId ?? ""));
  const group = context.larder.directory.groupBySlug(params.groupSlug ?? "");
  if (!group || group.id !== recipe.groupId) throw new Response("Not Found", { status: 404 });
  const url = new URL(request.url);
  const meta = { recipe, origin: url.origin, url: url.origin + url.pathname };
  return {
    groupSlug: group.slug,
    recipe: recipeView(recipe),
    ownGroup: false,
    viewerId: null,
    // A visitor's menu: print and print preferences only (spec §6).
    menu: recipeMenuItems(null, group.slug, recipe),
    me: null,
    comments: null,
    actions: [],
    edit: null,
    ld: recipeJsonLd(meta),
    og: recipeOpenGraph(meta),
  };
}
