/**
 * /shopping-lists/{id}: one shopping list (spec §2). The loader reads it through core with the viewer's
 * actor; in the browser the list then lives in lib/shopping/store.ts: edits are queued and sent to
 * /api, other phones' changes arrive over the live channel, and the page keeps working offline
 * (decision 0085).
 */
import type { MetaFunction } from "react-router";
import { useLoaderData } from "react-router";
import { ListPage } from "../components/shopping/ListPage.js";
import { coreCall } from "../lib/errors.server.js";
import { metaT } from "../lib/i18n.js";
import { requireUserActor } from "../lib/session.server.js";
import { recipeNamesOf, trimItem, trimList, type Vocabulary } from "../lib/shopping/types.js";
import type { LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  {
    title: `${data?.list.name || metaT(matches, "shopping")("lists.untitled")} | ${metaT(matches)("appName")}`,
  },
];

export async function loader({ request, context, params }: LoaderArgs) {
  const actor = await requireUserActor(request, context);
  const { larder } = context;
  const out = await coreCall(() => larder.shopping.getList(actor, params.id ?? ""));
  const vocabulary: Vocabulary = {
    foods: larder.foodsUnits.list(actor, "foods").map((f) => ({
      id: f.id,
      name: f.name,
      pluralName: f.pluralName ?? null,
      labelId: f.labelId ?? null,
      onHand: f.onHand ?? false,
      aliases: (f.aliases ?? []).map((a) => a.name),
    })),
    units: larder.foodsUnits.list(actor, "units").map((u) => ({
      id: u.id,
      name: u.name,
      pluralName: u.pluralName,
      abbreviation: u.abbreviation,
      useAbbreviation: u.useAbbreviation,
      fraction: u.fraction,
      aliases: (u.aliases ?? []).map((a) => a.name),
    })),
    labels: larder.labels
      .list(actor, { perPage: -1 })
      .items.map((l) => ({ id: l.id, name: l.name, color: l.color })),
  };
  const names = recipeNamesOf(out);
  return {
    list: trimList(out),
    items: out.listItems.map((i) => trimItem(i, names)),
    vocabulary,
    mine: out.userId === actor.user.id,
  };
}

export default function ShoppingListRoute() {
  const data = useLoaderData<typeof loader>();
  return <ListPage key={data.list.id} {...data} />;
}
