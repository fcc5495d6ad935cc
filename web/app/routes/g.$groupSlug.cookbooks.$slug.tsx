/**
 * /g/{groupSlug}/cookbooks/{slug} (spec §2): a cookbook's recipes, 30 a page by name. Members see their
 * household's cookbooks (or another household's in the group); visitors of a public group its public
 * cookbooks. An edit link leads to the cookbooks screen.
 */
import type { MetaFunction } from "react-router";
import { Link, useLoaderData } from "react-router";
import { Button } from "@mantine/core";
import { Pagination } from "../components/Pagination.js";
import { RecipeCard, type RecipeCardData } from "../components/RecipeCard.js";
import { coreCall } from "../lib/errors.server.js";
import { metaT, useT } from "../lib/i18n.js";
import { cardText } from "../lib/markdown.js";
import { RECIPE_PAGE_SIZE } from "../lib/recipe-list-query.js";
import type { RecipeListQuery } from "../../../core/recipes/list-query.js";
import { resolveGroupViewer } from "../lib/session.server.js";
import type { LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  { title: data ? `${data.name} | ${metaT(matches)("appName")}` : metaT(matches)("appName") },
];

export async function loader({ request, context, params }: LoaderArgs) {
  const viewer = await resolveGroupViewer(request, context, params.groupSlug);
  const { larder } = context;
  const slug = params.slug ?? "";
  const own = viewer.ownGroup && viewer.actor ? viewer.actor : null;
  const page = Math.max(1, Number.parseInt(new URL(request.url).searchParams.get("page") ?? "1", 10) || 1);
  const api: RecipeListQuery = {
    page,
    perPage: RECIPE_PAGE_SIZE,
    orderBy: "name",
    orderDirection: "asc",
    cookbook: slug,
  };

  const cookbook = await coreCall(() => {
    if (!own) return larder.explore.cookbook(viewer.groupSlug, slug);
    const mine = larder.cookbooks.list(own, { perPage: -1 }).items.find((c) => c.slug === slug);
    if (mine) return mine;
    // Another household's cookbook in the group: the recipe list finds it by slug too.
    const other = larder.cookbooks.inActorsGroup(own, slug);
    if (!other) throw new Response("Not Found", { status: 404 });
    return other;
  });
  const list = await coreCall(() =>
    own ? larder.recipes.lister.list(own, api) : larder.explore.recipes(viewer.groupSlug, api),
  );
  const items: RecipeCardData[] = list.items.map((r) => ({
    id: r.id,
    slug: r.slug,
    name: r.name,
    description: cardText(r.description),
    image: r.image,
    tags: r.tags.map((t) => ({ name: t.name, slug: t.slug })),
    totalTime: r.totalTime,
    rating: r.rating ?? null,
  }));
  return {
    groupSlug: viewer.groupSlug,
    ownGroup: viewer.ownGroup,
    name: cookbook.name,
    description: cookbook.description,
    household: cookbook.household.name,
    mine: !!own && cookbook.householdId === own.user.householdId,
    total: list.total,
    page: list.page,
    totalPages: list.totalPages,
    items,
  };
}

export default function CookbookPage() {
  const data = useLoaderData<typeof loader>();
  const t = useT("cookbooks");
  const base = `/g/${encodeURIComponent(data.groupSlug)}`;

  return (
    <div className="page">
      <div className="page__header">
        <div>
          <h1 className="page__title" data-testid="cookbook-title">
            {data.name}
          </h1>
          <p className="page__subtitle" data-testid="recipe-count">
            {t("recipeCount", { count: data.total })}
            {data.description ? ` · ${data.description}` : ""}
            {!data.mine ? ` · ${t("fromHousehold", { household: data.household })}` : ""}
          </p>
        </div>
        {data.mine ? (
          <div className="page__header-actions">
            <Button component={Link} to={`${base}/cookbooks`} variant="default">
              {t("manage")}
            </Button>
          </div>
        ) : null}
      </div>
      {data.items.length === 0 ? (
        <div className="empty">
          <p className="empty__title">{t("noRecipes")}</p>
        </div>
      ) : (
        <ul className="card-grid" aria-label={t("recipes")}>
          {data.items.map((r, i) => (
            <li key={r.id}>
              <RecipeCard recipe={r} groupSlug={data.groupSlug} position={i} />
            </li>
          ))}
        </ul>
      )}
      <Pagination
        page={data.page}
        totalPages={data.totalPages}
        hrefFor={(p) => (p > 1 ? `?page=${p}` : "?")}
      />
    </div>
  );
}
