/**
 * The admin's list of groups or of households (spec §2, §6): a table with each place's members, and
 * create, rename and delete. A place with members cannot be deleted; its delete button says why (the
 * rule itself holds in core). The two screens differ only in their keys and their middle column.
 */
import { useState, type ReactNode } from "react";
import { Button, Group, Paper, Table, Text, Title, Tooltip } from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { NameDialog } from "./NameDialog.js";
import { useFormAction } from "./use-form-action.js";
import { useT } from "../../lib/i18n.js";

export interface PlaceRow {
  id: string;
  name: string;
  members: number;
  /** Households only: the group it belongs to. */
  groupId?: string;
}

export function PlacesAdmin<T extends PlaceRow>({
  kind,
  rows,
  column,
  subtitle,
  groups,
}: {
  /** The admin catalogue's section and the test ids' stem ("group" → group-row-…, groups-table). */
  kind: "groups" | "households";
  rows: readonly T[];
  /** The middle column: its header and its cell. */
  column: { header: string; cell: (row: T) => ReactNode };
  /** A dimmed line under the name (a group's address). */
  subtitle?: (row: T) => string;
  /** Households: the groups one can be put in. */
  groups?: { id: string; name: string }[];
}) {
  const t = useT("admin");
  const one = kind === "groups" ? "group" : "household";
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<T | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const del = useFormAction(() => setDeleting(null));
  return (
    <>
      <div className="page__header">
        <div>
          <Title order={1} className="page__title">
            {t(`${kind}.title`)}
          </Title>
          <p className="page__subtitle">{t(`${kind}.count`, { count: rows.length })}</p>
        </div>
        <Button onClick={() => setCreating(true)} data-testid={`${one}-create`}>
          {t(`${kind}.create`)}
        </Button>
      </div>
      <Paper withBorder radius="md" className="admin-table-wrap">
        <Table striped verticalSpacing="sm" data-testid={`${kind}-table`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("common.name")}</Table.Th>
              <Table.Th visibleFrom="sm">{column.header}</Table.Th>
              <Table.Th visibleFrom="sm">{t("households.members")}</Table.Th>
              <Table.Th>
                <span className="visually-hidden">{t("users.actions")}</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.id} data-testid={`${one}-row-${row.name}`}>
                <Table.Td>
                  <Text fw={600} size="sm">
                    {row.name}
                  </Text>
                  {subtitle ? (
                    <Text size="xs" c="dimmed">
                      {subtitle(row)}
                    </Text>
                  ) : null}
                  {/* On a phone the two count columns fold in here, so Edit and Delete stay on screen. */}
                  <Text size="xs" c="dimmed" hiddenFrom="sm" data-testid={`${one}-counts`}>
                    {column.header}: {column.cell(row)} · {t("households.members")}: {row.members}
                  </Text>
                </Table.Td>
                <Table.Td visibleFrom="sm">{column.cell(row)}</Table.Td>
                <Table.Td visibleFrom="sm">{row.members}</Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Button size="xs" variant="subtle" onClick={() => setRenaming(row)}>
                      {t("common:actions.edit")}
                    </Button>
                    <Tooltip label={t(`${kind}.hasUsers`)} disabled={row.members === 0}>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="error"
                        onClick={() => setDeleting(row)}
                        data-testid={`${one}-delete-${row.name}`}
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
        title={t(`${kind}.create`)}
        intent="create"
        groups={groups}
        testId={`${one}-form`}
      />
      <NameDialog
        opened={renaming !== null}
        onClose={() => setRenaming(null)}
        title={t(`${kind}.edit`)}
        intent="rename"
        id={renaming?.id}
        initialName={renaming?.name}
        // A household cannot move to another group (core/groups/group-admin.ts): no group to choose.
        testId={`${one}-rename`}
      />
      <AppDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t(`${kind}.deleteTitle`)}
        submitLabel={t("common:actions.delete")}
        submitColor="error"
        keepOpen
        loading={del.busy}
        onSubmit={() => deleting && del.submit("delete", { id: deleting.id })}
        data-testid={`${one}-delete-dialog`}
      >
        <Text>{t(`${kind}.deleteConfirm`, { name: deleting?.name ?? "" })}</Text>
      </AppDialog>
    </>
  );
}
