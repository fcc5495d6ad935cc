/**
 * /g/:groupSlug/r/:slug: the recipe page (view, cook, edit with ?edit=true). The loader reads through
 * core for members and through the explore service for visitors of a public group; the action runs the
 * page's writes (lib/recipe-intents.server.ts). The page keeps its schema.org JSON-LD and OpenGraph tags.
 */
import type { LinksFunction, MetaFunction } from "react-router";
import { useLoaderData, type ShouldRevalidateFunction } from "react-router";
import { RecipePage } from "../components/recipe/RecipePage.js";
import { metaT } from "../lib/i18n.js";
import { runRecipeIntent } from "../lib/recipe-intents.server.js";
import { loadRecipePage } from "../lib/recipe-page.server.js";
import recipeStyles from "../styles/recipe-page.css?url";
import printStyles from "../styles/print.css?url";
import timelineStyles from "../styles/timeline.css?url";
import type { LoaderArgs, ActionArgs } from "../lib/context.js";
import { stylesheet } from "../lib/stylesheets.js";

export const links: LinksFunction = () => [
  stylesheet(recipeStyles),
  stylesheet(printStyles, "print"),
  stylesheet(timelineStyles),
];

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaT(matches, "recipe");
  if (!data) return [{ title: metaT(matches, "common")("errors.pageNotFound") }];
  return [{ title: t("pageTitle", { name: data.recipe.name }) }, ...data.og, { "script:ld+json": data.ld }];
};

export async function loader({ request, context, params }: LoaderArgs) {
  return loadRecipePage(request, context, params);
}

export async function action({ request, context, params }: ActionArgs) {
  return runRecipeIntent(request, context, params.slug ?? "");
}

/**
 * After a delete, or a save that renamed the recipe (a new slug), the page navigates away itself:
 * reloading the old address first would show the 404 page, and the navigation would never come.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formData,
  actionResult,
  currentParams,
  defaultShouldRevalidate,
}) => {
  const intent = formData?.get("intent");
  if (intent === "delete" || intent === "zip") return false;
  const slug = (actionResult as { slug?: unknown } | undefined)?.slug;
  if (typeof slug === "string" && slug !== currentParams.slug) return false;
  return defaultShouldRevalidate;
};

export default function RecipeRoute() {
  const data = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <RecipePage data={data} />
    </div>
  );
}
