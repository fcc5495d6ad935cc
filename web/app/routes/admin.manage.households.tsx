/**
 * /admin/manage/households (spec §2, §7 Admin): every household of every group with its member count;
 * create one in a group, rename it, delete an empty one (core refuses a household with users and a
 * group's last household, and a demo refuses deleting at all).
 */
import { data, useLoaderData, type MetaFunction } from "react-router";
import { PlacesAdmin } from "../components/admin/PlacesAdmin.js";
import { attempt, field } from "../lib/admin.server.js";
import { requireGuards } from "../lib/guards.server.js";
import { metaT, useT } from "../lib/i18n.js";
import { serverT } from "../lib/i18n.server.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "admin")("households.title")} | ${metaT(matches)("appName")}` },
];

export async function loader(args: LoaderArgs) {
  const actor = await requireGuards(args, { admin: true });
  const { larder } = args.context;
  return {
    households: larder.groupAdmin
      .households(actor)
      .map((h) => ({
        id: h.id,
        name: h.name,
        groupId: h.groupId,
        group: h.group,
        members: (h.users ?? []).length,
      }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.group.localeCompare(b.group)),
    groups: larder.groupAdmin.groups(actor).map((g) => ({ id: g.id, name: g.name })),
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
        () =>
          larder.groupAdmin.createHousehold(actor, {
            name: field(form, "name"),
            groupId: field(form, "groupId") || null,
          }),
        (r) => t("households.created", { name: r.name }),
      );
    case "rename":
      return attempt(
        intent,
        how,
        () =>
          larder.groupAdmin.updateHousehold(actor, id, {
            name: field(form, "name"),
            groupId: field(form, "groupId") || null,
          }),
        t("households.updated"),
      );
    case "delete":
      return attempt(
        intent,
        how,
        () => larder.groupAdmin.deleteHousehold(actor, id),
        (r) => t("households.deleted", { name: r.name }),
      );
    default:
      throw data("Unknown intent", { status: 400 });
  }
}

export default function AdminHouseholds() {
  const { households, groups } = useLoaderData<typeof loader>();
  const t = useT("admin");
  return (
    <PlacesAdmin
      kind="households"
      rows={households}
      column={{ header: t("households.group"), cell: (h) => h.group }}
      groups={groups}
    />
  );
}
