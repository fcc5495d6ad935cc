/** /g/:groupSlug: the group home, a recipe card grid with search, organizer filters and pagination. */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Pagination } from "../components/Pagination.js";
import { RecipeCard, type RecipeCardData } from "../components/RecipeCard.js";
import { coreCall } from "../lib/errors.server.js";
import { markdownToText } from "../lib/markdown.js";
import { requireGroupMember } from "../lib/session.server.js";

/** Spec §9: recipe page size 30, default order name ascending. */
const PER_PAGE = 30;
const FILTER_PARAMS = ["tags", "categories", "tools"] as const;
const FILTER_LABELS: Record<string, string> = { tags: "tag", categories: "category", tools: "tool" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.search ? `“${data.search}” – ` : ""}${data.groupName} | Larder` : "Larder" },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { actor, groupSlug, groupName } = await requireGroupMember(request, context, params.groupSlug);
  const url = new URL(request.url);
  const q = url.searchParams;
  const page = Math.max(1, Number.parseInt(q.get("page") ?? "1", 10) || 1);
  const search = (q.get("search") ?? "").trim();

  // The lister reads Mealie's GET /api/recipes parameters from a URL; build one with what this page wants.
  const api = new URL("http://larder.invalid/api/recipes");
  api.searchParams.set("page", String(page));
  api.searchParams.set("perPage", String(PER_PAGE));
  if (search) api.searchParams.set("search", search);
  const orderBy = q.get("orderBy") ?? (search ? null : "name");
  if (orderBy) {
    api.searchParams.set("orderBy", orderBy);
    api.searchParams.set("orderDirection", q.get("orderDirection") === "desc" ? "desc" : "asc");
  }
  const filters: { param: string; value: string }[] = [];
  for (const param of FILTER_PARAMS) {
    for (const value of q.getAll(param)) {
      if (!value) continue;
      api.searchParams.append(param, value);
      filters.push({ param, value });
    }
  }

  const list = await coreCall(() => context.larder.recipes.lister.list(actor, api));
  const items: RecipeCardData[] = list.items.map((r) => ({
    id: r.id,
    slug: r.slug,
    name: r.name,
    description: markdownToText(r.description),
    image: r.image,
    tags: r.tags.map((t) => ({ name: t.name, slug: t.slug })),
    totalTime: r.totalTime,
  }));
  return {
    groupSlug,
    groupName,
    search,
    filters,
    page: list.page,
    totalPages: list.total_pages,
    total: list.total,
    items,
  };
}

export default function GroupHome() {
  const { groupSlug, groupName, search, filters, page, totalPages, total, items } =
    useLoaderData<typeof loader>();
  const base = `/g/${groupSlug}`;

  const hrefFor = (p: number) => {
    const sp = new URLSearchParams();
    if (search) sp.set("search", search);
    for (const f of filters) sp.append(f.param, f.value);
    if (p > 1) sp.set("page", String(p));
    const qs = sp.toString();
    return qs ? `${base}?${qs}` : base;
  };

  const filtered = Boolean(search) || filters.length > 0;
  return (
    <>
      <div className="page__header">
        <div>
          <h1 className="page__title">{search ? `Results for “${search}”` : groupName}</h1>
          <p className="page__subtitle">
            {total} {total === 1 ? "recipe" : "recipes"}
            {filters.length
              ? ` · ${filters.map((f) => `${FILTER_LABELS[f.param] ?? f.param}: ${f.value}`).join(", ")}`
              : ""}
          </p>
        </div>
        {filtered ? (
          <Link to={base} className="button">
            Clear filters
          </Link>
        ) : null}
      </div>
      {items.length === 0 ? (
        <div className="empty">
          <p className="empty__title">{filtered ? "No recipes match." : "No recipes yet."}</p>
          {filtered ? <Link to={base}>Show all recipes</Link> : null}
        </div>
      ) : (
        <ul className="card-grid" aria-label="Recipes">
          {items.map((r, i) => (
            <li key={r.id}>
              <RecipeCard recipe={r} groupSlug={groupSlug} eager={i < 6} />
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} totalPages={totalPages} hrefFor={hrefFor} />
    </>
  );
}
