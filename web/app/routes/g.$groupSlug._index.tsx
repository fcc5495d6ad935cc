/**
 * /g/:groupSlug: the group home (spec §2). A recipe card grid with filters in the query string (search,
 * categories, tags, tools, foods, households, require-all switches, order and direction, random with a
 * seed), 30 per page. Members list their group; anyone may browse a public group read-only (explore).
 */
import { useEffect } from "react";
import type { MetaFunction } from "react-router";
import { Link, useLoaderData, useLocation, useNavigate, useRouteLoaderData } from "react-router";
import { ActionIcon, Alert, Button, Tooltip } from "@mantine/core";
import { Pagination } from "../components/Pagination.js";
import { RecipeCard, type RecipeCardData } from "../components/RecipeCard.js";
import { RecipeFilters, type FilterOption } from "../components/home/RecipeFilters.js";
import { GridIcon, ListIcon } from "../components/shell/ShellIcons.js";
import { EmptyHomeActions } from "../components/create/EmptyHomeActions.js";
import { coreCall } from "../lib/errors.server.js";
import { metaT, useT } from "../lib/i18n.js";
import { cardText } from "../lib/markdown.js";
import { rememberListQuery, useRecipeListPrefs } from "../lib/recipe-list-prefs.js";
import {
  FILTER_KEYS,
  hasFilters,
  parseHomeQuery,
  toRecipeListQuery,
  toSearchParams,
  type FilterKey,
} from "../lib/recipe-list-query.js";
import { resolveGroupViewer } from "../lib/session.server.js";
import type { loader as layoutLoader } from "./g.$groupSlug.js";
import type { LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const app = metaT(matches)("appName");
  if (!data) return [{ title: app }];
  const search = data.query.search ? `“${data.query.search}” – ` : "";
  return [{ title: `${search}${data.groupName} | ${app}` }];
};

const ALL = { perPage: -1, orderBy: "name", orderDirection: "asc" } as const;

export async function loader({ request, context, params }: LoaderArgs) {
  const viewer = await resolveGroupViewer(request, context, params.groupSlug);
  const { larder } = context;
  const query = parseHomeQuery(new URL(request.url).searchParams);
  // Random order without a seed (a plain form post): pick one, so the pages of this shuffle agree.
  if (query.orderBy === "random" && !query.seed) query.seed = String(Date.now());
  const api = toRecipeListQuery(query);
  const own = viewer.ownGroup && viewer.actor ? viewer.actor : null;

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

  const organizerOptions = (kind: "categories" | "tags" | "tools"): FilterOption[] => {
    const env = own
      ? larder.recipes.lister.organizers(own, kind, ALL)
      : larder.explore.organizers(viewer.groupSlug, kind, ALL);
    return env.items.map((o) => ({ value: o.slug, label: o.name }));
  };
  const group = larder.directory.groupBySlug(viewer.groupSlug);
  const options: Record<FilterKey, FilterOption[]> = {
    categories: organizerOptions("categories"),
    tags: organizerOptions("tags"),
    tools: organizerOptions("tools"),
    foods: own
      ? larder.directory.foodsOf(viewer.groupSlug).map((f) => ({ value: f.id, label: f.name }))
      : larder.explore.foods(viewer.groupSlug, ALL).items.map((f) => ({ value: f.id, label: f.name })),
    households: own
      ? (group ? larder.directory.householdsOf(group.id) : []).map((h) => ({ value: h.slug, label: h.name }))
      : larder.explore.households(viewer.groupSlug, ALL).items.map((h) => ({ value: h.slug, label: h.name })),
  };
  // Only households when there is a choice to make; a one-household group needs no filter.
  if (options.households.length < 2) options.households = [];
  options.foods.sort((a, b) => a.label.localeCompare(b.label));

  return {
    groupSlug: viewer.groupSlug,
    groupName: viewer.groupName,
    ownGroup: viewer.ownGroup,
    query,
    options,
    page: list.page,
    totalPages: list.totalPages,
    total: list.total,
    items,
  };
}

export default function GroupHome() {
  const { groupSlug, groupName, ownGroup, query, options, page, totalPages, total, items } =
    useLoaderData<typeof loader>();
  const t = useT("shell");
  const location = useLocation();
  const navigate = useNavigate();
  const [prefs, setPrefs, prefsLoaded] = useRecipeListPrefs();
  const base = `/g/${encodeURIComponent(groupSlug)}`;

  // Spec §3: the search is kept for the session, so the drawer's Recipes link comes back to it.
  useEffect(() => rememberListQuery(groupSlug, location.search), [groupSlug, location.search]);

  // A list opened without an order takes the order the user last picked (a local preference).
  useEffect(() => {
    if (!prefsLoaded || query.orderBy || query.search) return;
    if (prefs.orderBy === "name" && prefs.orderDirection === "asc") return;
    const qs = toSearchParams({
      ...query,
      orderBy: prefs.orderBy,
      orderDirection: prefs.orderDirection,
      seed: null,
    });
    navigate(`${base}?${qs}`, { replace: true, preventScrollReset: true });
  }, [prefsLoaded]); // once, when the stored preferences arrive

  const hrefFor = (p: number) => {
    const qs = toSearchParams(query, p).toString();
    return qs ? `${base}?${qs}` : base;
  };
  const filtered = hasFilters(query);
  const shell = useRouteLoaderData<typeof layoutLoader>("routes/g.$groupSlug");
  const cookbookName = query.cookbook
    ? (shell?.cookbooks.find((c) => c.slug === query.cookbook)?.name ?? query.cookbook)
    : null;
  const filterSummary = FILTER_KEYS.flatMap((k) =>
    query.filters[k].map((v) => options[k].find((o) => o.value === v)?.label ?? v),
  );

  return (
    <div className="page">
      <div className="page__header">
        <div>
          <h1 className="page__title">
            {query.search ? t("home.resultsFor", { search: query.search }) : groupName}
          </h1>
          <p className="page__subtitle" data-testid="recipe-count">
            {t("home.recipeCount", { count: total })}
            {cookbookName ? ` · ${t("home.cookbook", { name: cookbookName })}` : ""}
            {filterSummary.length ? ` · ${filterSummary.join(", ")}` : ""}
          </p>
        </div>
        <div className="page__header-actions">
          <Tooltip label={prefs.useMobileCards ? t("home.gridCards") : t("home.mobileCards")}>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={prefs.useMobileCards ? t("home.gridCards") : t("home.mobileCards")}
              aria-pressed={prefs.useMobileCards}
              onClick={() => setPrefs({ useMobileCards: !prefs.useMobileCards })}
              data-testid="mobile-cards"
            >
              {prefs.useMobileCards ? <GridIcon /> : <ListIcon />}
            </ActionIcon>
          </Tooltip>
          {filtered || query.orderBy ? (
            <Button component={Link} to={base} variant="default" data-testid="clear-filters">
              {t("home.clearFilters")}
            </Button>
          ) : null}
        </div>
      </div>
      {!ownGroup ? (
        <Alert variant="light" color="info" mb="md" data-testid="public-notice">
          {t("home.publicNotice", { group: groupName })}
        </Alert>
      ) : null}
      <RecipeFilters
        base={base}
        query={query}
        options={options}
        onOrderChange={(orderBy, orderDirection) => {
          if (orderBy && orderBy !== "random") setPrefs({ orderBy, orderDirection });
        }}
      />
      {items.length === 0 ? (
        <div className="empty">
          <p className="empty__title">{filtered ? t("home.noMatch") : t("home.noRecipes")}</p>
          {filtered ? <Link to={base}>{t("home.showAll")}</Link> : null}
          {!filtered && ownGroup ? <EmptyHomeActions base={base} /> : null}
        </div>
      ) : (
        <ul
          className={`card-grid${prefs.useMobileCards ? " card-grid--mobile" : ""}`}
          aria-label={t("home.recipes")}
        >
          {items.map((r, i) => (
            <li key={r.id}>
              <RecipeCard recipe={r} groupSlug={groupSlug} position={i} />
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} totalPages={totalPages} hrefFor={hrefFor} />
    </div>
  );
}
