/**
 * /admin/manage/groups (spec §2, §6): every group with its households and members; create, rename,
 * delete. Spec §6's rules hold in core and show here: a group with users cannot be deleted (its
 * delete button says why), and a demo refuses deleting groups at all.
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
  const intent = field(form, "intent");
  const id = field(form, "id");
  switch (intent) {
    case "create":
      return attempt(
        intent,
        t,
        () => larder.groupAdmin.createGroup(actor, { name: field(form, "name") }),
        (g) => t("groups.created", { name: g.name }),
      );
    case "rename":
      return attempt(
        intent,
        t,
        () => larder.groupAdmin.updateGroup(actor, id, { name: field(form, "name") }),
        t("groups.updated"),
      );
    case "delete":
      return attempt(
        intent,
        t,
        () => larder.groupAdmin.deleteGroup(actor, id),
        (r) => t("groups.deleted", { name: r.name }),
      );
    default:
      throw data("Unknown intent", { status: 400 });
  }
}

type Row = Awaited<ReturnType<typeof loader>>["groups"][number];

export default function AdminGroups() {
  const { groups } = useLoaderData<typeof loader>();
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
            {t("groups.title")}
          </Title>
          <p className="page__subtitle">{t("groups.count", { count: groups.length })}</p>
        </div>
        <Button onClick={() => setCreating(true)} data-testid="group-create">
          {t("groups.create")}
        </Button>
      </div>
      <Paper withBorder radius="md" className="admin-table-wrap">
        <Table striped verticalSpacing="sm" data-testid="groups-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("common.name")}</Table.Th>
              <Table.Th>{t("groups.households")}</Table.Th>
              <Table.Th>{t("households.members")}</Table.Th>
              <Table.Th>
                <span className="visually-hidden">{t("users.actions")}</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {groups.map((g) => (
              <Table.Tr key={g.id} data-testid={`group-row-${g.name}`}>
                <Table.Td>
                  <Text fw={600} size="sm">
                    {g.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    /g/{g.slug}
                  </Text>
                </Table.Td>
                <Table.Td>{g.households}</Table.Td>
                <Table.Td>{g.members}</Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Button size="xs" variant="subtle" onClick={() => setRenaming(g)}>
                      {t("common:actions.edit")}
                    </Button>
                    <Tooltip label={t("groups.hasUsers")} disabled={g.members === 0}>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="error"
                        onClick={() => setDeleting(g)}
                        data-testid={`group-delete-${g.name}`}
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
        title={t("groups.create")}
        intent="create"
        testId="group-form"
      />
      <NameDialog
        opened={renaming !== null}
        onClose={() => setRenaming(null)}
        title={t("groups.edit")}
        intent="rename"
        id={renaming?.id}
        initialName={renaming?.name}
        testId="group-rename"
      />
      <AppDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t("groups.deleteTitle")}
        submitLabel={t("common:actions.delete")}
        submitColor="error"
        keepOpen
        loading={del.busy}
        onSubmit={() => deleting && del.submit("delete", { id: deleting.id })}
        data-testid="group-delete-dialog"
      >
        <Text>{t("groups.deleteConfirm", { name: deleting?.name ?? "" })}</Text>
      </AppDialog>
    </>
  );
}
