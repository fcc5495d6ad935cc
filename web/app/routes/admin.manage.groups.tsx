/**
 * /admin/manage/groups (spec §2, §6): every group with its households and members; create, rename,
 * delete. Spec §6's rules hold in core and show here: a group with users cannot be deleted (its
 * delete button says why), and a demo refuses deleting groups at all.
 */
import { data, useLoaderData, type MetaFunction } from "react-router";
import { PlacesAdmin } from "../components/admin/PlacesAdmin.js";
import { attempt, field } from "../lib/admin.server.js";
import { requireGuards } from "../lib/guards.server.js";
import { metaT, useT } from "../lib/i18n.js";
import { serverT } from "../lib/i18n.server.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "admin")("groups.title")} | ${metaT(matches)("appName")}` },
];

export async function loader(args: LoaderArgs) {
  const actor = await requireGuards(args, { admin: true });
  const { larder } = args.context;
  return {
    groups: larder.groupAdmin
      .groups(actor)
      .map((g) => ({
        id: g.id,
        name: g.name,
        slug: g.slug,
        households: (g.households ?? []).length,
        members: (g.users ?? []).length,
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

export async function action(args: ActionArgs) {
  const actor = await requireGuards(args, { admin: true });
  const { larder } = args.context;
  const form = await args.request.formData();
  const t = serverT(args.request, "admin");
  const how = { t, log: args.context.larder.log };
  const intent = field(form, "intent");
  const id = field(form, "id");
  switch (intent) {
    case "create":
      return attempt(
        intent,
        how,
        () => larder.groupAdmin.createGroup(actor, { name: field(form, "name") }),
        (g) => t("groups.created", { name: g.name }),
      );
    case "rename":
      return attempt(
        intent,
        how,
        () => larder.groupAdmin.updateGroup(actor, id, { name: field(form, "name") }),
        t("groups.updated"),
      );
    case "delete":
      return attempt(
        intent,
        how,
        () => larder.groupAdmin.deleteGroup(actor, id),
        (r) => t("groups.deleted", { name: r.name }),
      );
    default:
      throw data("Unknown intent", { status: 400 });
  }
}

export default function AdminGroups() {
  const { groups } = useLoaderData<typeof loader>();
  const t = useT("admin");
  return (
    <PlacesAdmin
      kind="groups"
      rows={groups}
      column={{ header: t("groups.households"), cell: (g) => g.households }}
      subtitle={(g) => `/g/${g.slug}`}
    />
  );
}
