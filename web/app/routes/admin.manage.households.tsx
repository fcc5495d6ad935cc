/**
 * /admin/manage/households (spec §2, §7 Admin): every household of every group with its member count;
 * create one in a group, rename it, delete an empty one (core refuses a household with users and a
 * group's last household, and a demo refuses deleting at all).
 */
import { useState } from "react";
import { data, useLoaderData, type MetaFunction } from "react-router";
import { Button, Group, Paper, Table, Text, Title, Tooltip } from "@mantine/core";
import { AppDialog } from "../components/dialog/AppDialog.js";
import { NameDialog } from "../components/admin/NameDialog.js";
import { useFormAction } from "../components/admin/use-form-action.js";
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
  const intent = field(form, "intent");
  const id = field(form, "id");
  switch (intent) {
    case "create":
      return attempt(
        intent,
        t,
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
        t,
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
        t,
        () => larder.groupAdmin.deleteHousehold(actor, id),
        (r) => t("households.deleted", { name: r.name }),
      );
    default:
      throw data("Unknown intent", { status: 400 });
  }
}

type Row = Awaited<ReturnType<typeof loader>>["households"][number];

export default function AdminHouseholds() {
  const { households, groups } = useLoaderData<typeof loader>();
  const t = useT("admin");
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<Row | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const del = useFormAction(() => setDeleting(null));
  return (
    <>
      <div className="page__header">
        <div>
          <Title order={1} className="page__title">
            {t("households.title")}
          </Title>
          <p className="page__subtitle">{t("households.count", { count: households.length })}</p>
        </div>
        <Button onClick={() => setCreating(true)} data-testid="household-create">
          {t("households.create")}
        </Button>
      </div>
      <Paper withBorder radius="md" className="admin-table-wrap">
        <Table striped verticalSpacing="sm" data-testid="households-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("common.name")}</Table.Th>
              <Table.Th>{t("households.group")}</Table.Th>
              <Table.Th>{t("households.members")}</Table.Th>
              <Table.Th>
                <span className="visually-hidden">{t("users.actions")}</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {households.map((h) => (
              <Table.Tr key={h.id} data-testid={`household-row-${h.name}`}>
                <Table.Td>
                  <Text fw={600} size="sm">
                    {h.name}
                  </Text>
                </Table.Td>
                <Table.Td>{h.group}</Table.Td>
                <Table.Td>{h.members}</Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Button size="xs" variant="subtle" onClick={() => setRenaming(h)}>
                      {t("common:actions.edit")}
                    </Button>
                    <Tooltip label={t("households.hasUsers")} disabled={h.members === 0}>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="error"
                        onClick={() => setDeleting(h)}
                        data-testid={`household-delete-${h.name}`}
                      >
                        {t("common:actions.delete")}
                      </Button>
                    </Tooltip>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
      <NameDialog
        opened={creating}
        onClose={() => setCreating(false)}
        title={t("households.create")}
        intent="create"
        groups={groups}
        testId="household-form"
      />
      <NameDialog
        opened={renaming !== null}
        onClose={() => setRenaming(null)}
        title={t("households.edit")}
        intent="rename"
        id={renaming?.id}
        initialName={renaming?.name}
        groups={groups}
        initialGroupId={renaming?.groupId}
        testId="household-rename"
      />
      <AppDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t("households.deleteTitle")}
        submitLabel={t("common:actions.delete")}
        submitColor="error"
        keepOpen
        loading={del.busy}
        onSubmit={() => deleting && del.submit("delete", { id: deleting.id })}
        data-testid="household-delete-dialog"
      >
        <Text>{t("households.deleteConfirm", { name: deleting?.name ?? "" })}</Text>
      </AppDialog>
    </>
  );
}
