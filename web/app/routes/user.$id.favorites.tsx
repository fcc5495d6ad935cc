/** /user/{id}/favorites (spec §2): a group member's favourite recipes as cards. */
import type { MetaFunction } from "react-router";
import { Link, useLoaderData } from "react-router";
import { RecipeCard, type RecipeCardData } from "../components/RecipeCard.js";
import { coreCall } from "../lib/errors.server.js";
import { metaT, useT } from "../lib/i18n.js";
import { cardText } from "../lib/markdown.js";
import { groupSlugOf, requireUserActor } from "../lib/session.server.js";
import type { LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "shell")("favorites.title")} | ${metaT(matches)("appName")}` },
];

export async function loader({ request, context, params }: LoaderArgs) {
  const actor = await requireUserActor(request, context);
  const { larder } = context;
  const userId = params.id ?? "";
  // Core checks the user is a member of the caller's group (404 otherwise).
  const favorites = await coreCall(() => larder.ratings.forUser(actor, userId, true));
  const groupSlug = groupSlugOf(context, actor.user) ?? "";
  let items: RecipeCardData[] = [];
  if (favorites.length) {
    const ids = favorites.map((f) => JSON.stringify(f.recipeId)).join(",");
    const list = await coreCall(() =>
      larder.recipes.lister.list(actor, {
        queryFilter: `id IN [${ids}]`,
        perPage: -1,
        orderBy: "name",
        orderDirection: "asc",
      }),
    );
    items = list.items.map((r) => ({
      id: r.id,
      slug: r.slug,
      name: r.name,
      description: cardText(r.description),
      image: r.image,
      tags: r.tags.map((t) => ({ name: t.name, slug: t.slug })),
      totalTime: r.totalTime,
      rating: r.rating ?? null,
    }));
  }
  const owner = larder.users.byId(userId);
  const self = owner?.id === actor.user.id;
  return { groupSlug, items, ownerName: self ? null : owner?.fullName || owner?.username || null };
}

export default function Favorites() {
  const { groupSlug, items, ownerName } = useLoaderData<typeof loader>();
  const t = useT("shell");
  return (
    <div className="page">
      <div className="page__header">
        <h1 className="page__title">
          {ownerName ? t("favorites.titleOf", { name: ownerName }) : t("favorites.title")}
        </h1>
      </div>
      {items.length === 0 ? (
        <div className="empty">
          <p className="empty__title">{t("favorites.none")}</p>
          <Link to={`/g/${groupSlug}`}>{t("home.showAll")}</Link>
        </div>
      ) : (
        <ul className="card-grid" aria-label={t("favorites.title")}>
          {items.map((r, i) => (
            <li key={r.id}>
              <RecipeCard recipe={r} groupSlug={groupSlug} position={i} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
