/**
 * The table every settings screen shows its records in (labels, recipe actions, webhooks, notifiers,
 * foods, units), with its row actions, and the editor/delete-confirmation state that goes with it.
 * The screens differ only in their columns and their editor dialog.
 */
import { useState, type ReactElement, type ReactNode } from "react";
import { Badge, Button, Group, Table, Text } from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { TrashIcon } from "../shell/ShellIcons.js";
import { useT } from "../../lib/i18n.js";
import {
  DeleteDialog,
  EditIcon,
  IconButton,
  RowButton,
  submitForm,
  useOnSuccess,
  useSettingsFetcher,
} from "./common.js";

interface Identified {
  id: string;
}

export interface RecordDialogs<T extends Identified> {
  /** The record in the editor, "new" for the create dialog, null when it is closed. */
  editing: T | "new" | null;
  edit: (row: T | "new") => void;
  closeEditor: () => void;
  /** A key for the editor dialog, so that its fields start again from each record it opens. */
  editorKey: string;
  askDelete: (row: T) => void;
  /** The "Delete X?" dialog; it posts `intent=delete` with the record's id to the current route. */
  deleteDialog: ReactElement;
}

export function useRecordDialogs<T extends Identified>(nameOf: (row: T) => string): RecordDialogs<T> {
  const [editing, setEditing] = useState<T | "new" | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const remove = useSettingsFetcher();
  useOnSuccess(remove, () => setDeleting(null));
  return {
    editing,
    edit: setEditing,
    closeEditor: () => setEditing(null),
    editorKey: editing === null ? "closed" : editing === "new" ? "new" : editing.id,
    askDelete: setDeleting,
    deleteDialog: (
      <DeleteDialog
        name={deleting ? nameOf(deleting) : null}
        onClose={() => setDeleting(null)}
        loading={remove.state !== "idle"}
        onConfirm={() => deleting && submitForm(remove, { intent: "delete", id: deleting.id })}
      />
    ),
  };
}

export interface Column<T> {
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** `settings__wide`: shown only where there is room (hidden on a phone). */
  className?: string;
}

/** A table's head row, ending with the (visually hidden) actions column. */
export function RecordTableHead({ headers }: { headers: Array<{ label: ReactNode; className?: string }> }) {
  const t = useT("data");
  return (
    <Table.Thead>
      <Table.Tr>
        {headers.map((h, i) => (
          <Table.Th key={i} className={h.className}>
            {h.label}
          </Table.Th>
        ))}
        <Table.Th w={1}>
          <span className="visually-hidden">{t("fields.actions")}</span>
        </Table.Th>
      </Table.Tr>
    </Table.Thead>
  );
}

/**
 * Edit and delete as plain buttons, for the long lists (foods, units: a page shows 50 rows, and
 * Mantine's ActionIcon and Tooltip cost several times the bytes and server time).
 */
export function PlainRowActions(props: {
  editLabel: string;
  deleteLabel: string;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <div className="settings__rowactions">
      <RowButton label={props.editLabel} onClick={props.onEdit} testId="row-edit">
        <EditIcon />
      </RowButton>
      <RowButton label={props.deleteLabel} danger onClick={props.onDelete} testId="row-delete">
        <TrashIcon />
      </RowButton>
    </div>
  );
}

export function RecordTable<T extends Identified>(props: {
  rows: readonly T[];
  columns: ReadonlyArray<Column<T>>;
  dialogs: RecordDialogs<T>;
  testId: string;
  rowTestId: (row: T) => string;
  editLabel: (row: T) => string;
  deleteLabel: (row: T) => string;
  /** More actions before edit and delete (a webhook's "Test"). */
  extraActions?: (row: T) => ReactNode;
  highlightOnHover?: boolean;
}) {
  const { dialogs } = props;
  return (
    <Table
      className="settings__table"
      striped
      highlightOnHover={props.highlightOnHover}
      data-testid={props.testId}
    >
      <RecordTableHead headers={props.columns.map((c) => ({ label: c.header, className: c.className }))} />
      <Table.Tbody>
        {props.rows.map((row) => (
          <Table.Tr key={row.id} data-testid={props.rowTestId(row)}>
            {props.columns.map((c, i) => (
              <Table.Td key={i} className={c.className}>
                {c.cell(row)}
              </Table.Td>
            ))}
            <Table.Td>
              <Group gap={4} wrap="nowrap">
                {props.extraActions?.(row)}
                <IconButton label={props.editLabel(row)} onClick={() => dialogs.edit(row)} testId="row-edit">
                  <EditIcon />
                </IconButton>
                <IconButton
                  label={props.deleteLabel(row)}
                  color="error"
                  onClick={() => dialogs.askDelete(row)}
                  testId="row-delete"
                >
                  <TrashIcon />
                </IconButton>
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** "Test" on a webhook's or notifier's row: posts `intent=test` with its id; the answer is toasted. */
export function TestButton({ id }: { id: string }) {
  const t = useT("household");
  const fetcher = useSettingsFetcher();
  return (
    <Button
      size="xs"
      variant="light"
      loading={fetcher.state !== "idle"}
      onClick={() => submitForm(fetcher, { intent: "test", id })}
      data-testid="row-test"
    >
      {t("test")}
    </Button>
  );
}

/** A record's name, marked when it is switched off. */
export function NameCell({ name, enabled }: { name: string; enabled: boolean }) {
  const t = useT("household");
  return (
    <>
      <Text fw={500}>{name}</Text>
      {!enabled ? (
        <Badge size="xs" color="gray" variant="light">
          {t("disabled")}
        </Badge>
      ) : null}
    </>
  );
}

type FieldValue = string | number | boolean | null | undefined | readonly string[];

/** The record an editor dialog was opened on; null for "new" (and when it is closed). */
export function editedRecord<T extends Identified>(record: T | "new" | null): T | null {
  return record !== null && record !== "new" ? record : null;
}

/**
 * The create/edit dialog frame of a record: posts `intent=create`, or `intent=update` with the record's
 * id, plus `values` (a list is sent as repeated fields; null, undefined and false are left out), and
 * closes on success. The caller keeps the fields' state and renders them as children.
 */
export function RecordEditor<T extends Identified>(props: {
  record: T | "new" | null;
  onClose: () => void;
  title: string;
  canSubmit: boolean;
  values: () => Record<string, FieldValue>;
  testId: string;
  maxWidth?: number;
  children: ReactNode;
}) {
  const tc = useT("common");
  const fetcher = useSettingsFetcher();
  useOnSuccess(fetcher, props.onClose);
  const editing = editedRecord(props.record);
  const submit = () => {
    const data = new FormData();
    data.set("intent", editing ? "update" : "create");
    if (editing) data.set("id", editing.id);
    for (const [k, v] of Object.entries(props.values())) {
      if (Array.isArray(v)) for (const item of v) data.append(k, item);
      else if (v === true) data.set(k, "on");
      else if (v !== null && v !== undefined && v !== false) data.set(k, String(v));
    }
    fetcher.submit(data, { method: "post" });
  };
  return (
    <AppDialog
      opened={props.record !== null}
      onClose={props.onClose}
      title={props.title}
      submitLabel={editing ? tc("actions.save") : tc("actions.create")}
      loading={fetcher.state !== "idle"}
      canSubmit={props.canSubmit}
      keepOpen
      maxWidth={props.maxWidth}
      onSubmit={submit}
      data-testid={props.testId}
    >
      {props.children}
    </AppDialog>
  );
}
