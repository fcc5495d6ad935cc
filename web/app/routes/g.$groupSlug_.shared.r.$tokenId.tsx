/**
 * /g/:groupSlug/shared/r/:tokenId: a recipe shared by link (spec §2). Needs no login, so it sits outside
 * the group layout (which asks private groups' visitors to sign in) and uses the plain layout. Expired or
 * unknown links are "page not found". Search engines are asked not to index it: the link is a capability.
 */
import type { LinksFunction, MetaFunction } from "react-router";
import { useLoaderData } from "react-router";
import { RecipePage } from "../components/recipe/RecipePage.js";
import { PlainLayout } from "../components/shell/PlainLayout.js";
import { metaT } from "../lib/i18n.js";
import { loadSharedRecipePage } from "../lib/recipe-page.server.js";
import recipeStyles from "../styles/recipe-page.css?url";
import printStyles from "../styles/print.css?url";
import type { LoaderArgs } from "../lib/context.js";
import { stylesheet } from "../lib/stylesheets.js";

export const links: LinksFunction = () => [stylesheet(recipeStyles), stylesheet(printStyles, "print")];

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [{ title: metaT(matches, "common")("errors.pageNotFound") }];
  return [
    { title: metaT(matches, "recipe")("pageTitle", { name: data.recipe.name }) },
    { name: "robots", content: "noindex" },
    ...data.og,
    { "script:ld+json": data.ld },
  ];
};

export async function loader({ request, context, params }: LoaderArgs) {
  return loadSharedRecipePage(request, context, params);
}

export default function SharedRecipeRoute() {
  const data = useLoaderData<typeof loader>();
  return (
    <PlainLayout>
      <main className="page" id="main" tabIndex={-1} data-testid="shared-recipe">
        <RecipePage data={data} />
      </main>
    </PlainLayout>
  );
}
