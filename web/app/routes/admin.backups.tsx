/**
 * /admin/backups (spec §2, §7 Admin; decisions 0070–0071): the backups with their date and size;
 * create one, download one (a file token, then /api/utils/download), upload one, restore one after a
 * confirmation, delete one. A restore ends every session, this admin's too: the page goes to the login.
 */
import { useRef, useState } from "react";
import { data, redirect, useLoaderData, useRevalidator, type MetaFunction } from "react-router";
import { Alert, Button, FileButton, Group, Paper, Table, Text, Title } from "@mantine/core";
import { AppDialog } from "../components/dialog/AppDialog.js";
import { backupKind, zipEntryNames } from "../lib/backup-kind.js";
import { useFormAction } from "../components/admin/use-form-action.js";
import { attempt, field } from "../lib/admin.server.js";
import { requireGuards } from "../lib/guards.server.js";
import { metaT, useT } from "../lib/i18n.js";
import { serverT } from "../lib/i18n.server.js";
import { useFormat } from "../lib/use-format.js";
import { getUserActor, sessionCookie } from "../lib/session.server.js";
import { toast } from "../lib/toast.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "admin")("backups.title")} | ${metaT(matches)("appName")}` },
];

export async function loader(args: LoaderArgs) {
  const actor = await requireGuards(args, { admin: true });
  return { backups: (await args.context.larder.backups.list(actor)).imports };
}

export async function action(args: ActionArgs) {
  const actor = await requireGuards(args, { admin: true });
  const { larder } = args.context;
  const form = await args.request.formData();
  const t = serverT(args.request, "admin");
  const how = { t, log: args.context.larder.log };
  const intent = field(form, "intent");
  const name = field(form, "name");
  switch (intent) {
    case "create":
      return attempt(
        intent,
        how,
        () => larder.backups.create(actor),
        (r) => t("backups.created", { name: r.name }),
      );
    case "download":
      return attempt(intent, how, () => larder.backups.downloadToken(actor, name));
    case "delete":
      return attempt(intent, how, () => larder.backups.remove(actor, name), t("backups.deleted", { name }));
    case "restore": {
      const result = await attempt(intent, how, () => larder.backups.restore(actor, name));
      // A restore whose data would not open puts the data from before back, and that ends every
      // session too (core/backups/guarded-restore.ts): the page could not even show its error.
      if (!result.ok && (await getUserActor(args.request, args.context)) === null)
        throw redirect("/login?direct=1&restored=undone", {
          headers: { "Set-Cookie": sessionCookie(args.request, args.context, "", 0) },
        });
      if (!result.ok) return result;
      // Every session ended with the restore: clear the cookie and sign in again.
      throw redirect("/login?direct=1&restored=1", {
        headers: { "Set-Cookie": sessionCookie(args.request, args.context, "", 0) },
      });
    }
    default:
      throw data("Unknown intent", { status: 400 });
  }
}

type Backup = Awaited<ReturnType<typeof loader>>["backups"][number];

const when = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

export default function AdminBackups() {
  const { backups } = useLoaderData<typeof loader>();
  const t = useT("admin");
  const f = useFormat();
  const revalidator = useRevalidator();
  const [restoring, setRestoring] = useState<Backup | null>(null);
  const [deleting, setDeleting] = useState<Backup | null>(null);
  const [uploading, setUploading] = useState(false);
  const resetUpload = useRef<() => void>(null);
  const create = useFormAction();
  const row = useFormAction<{ fileToken?: string }>((r) => {
    if (r.intent === "download" && r.value?.fileToken)
      window.location.assign(`/api/utils/download?token=${encodeURIComponent(r.value.fileToken)}`);
    if (r.intent === "delete") setDeleting(null);
  });

  // A Mealie backup is migrated into the group as soon as the server has it: say so and ask first.
  const [confirmMealie, setConfirmMealie] = useState<{ file: File; checked: boolean } | null>(null);
  const choose = async (file: File | null) => {
    if (!file) return;
    const names = await zipEntryNames(file).catch(() => null);
    const kind = names ? backupKind(names) : null;
    if (kind === "larder" || kind === "unknown") return upload(file);
    setConfirmMealie({ file, checked: kind === "mealie" });
  };

  const upload = async (file: File) => {
    setUploading(true);
    try {
      const body = new FormData();
      body.append("archive", file);
      const res = await fetch("/api/admin/backups/upload", {
        method: "POST",
        body,
        credentials: "same-origin",
      });
      const json = (await res.json().catch(() => null)) as {
        message?: string;
        detail?: { message?: string };
      } | null;
      // A Mealie backup is no backup of this site: it is migrated into the group, which the admin must
      // know (recipes and people are added), not "uploaded".
      if (res.ok && json?.message?.startsWith("This is a Mealie backup"))
        toast.info(t("backups.mealieMigrating"));
      else if (res.ok) toast.success(t("backups.uploaded"));
      else toast.error(json?.detail?.message ?? t("backups.uploadFailed"));
      await revalidator.revalidate();
    } finally {
      setUploading(false);
      resetUpload.current?.();
    }
  };

  return (
    <>
      <div className="page__header">
        <div>
          <Title order={1} className="page__title">
            {t("backups.title")}
          </Title>
          <p className="page__subtitle">{t("backups.count", { count: backups.length })}</p>
        </div>
        <Group gap="sm">
          <FileButton onChange={(f) => void choose(f)} accept=".zip,application/zip" resetRef={resetUpload}>
            {(props) => (
              <Button variant="default" loading={uploading} {...props} data-testid="backup-upload">
                {t("backups.upload")}
              </Button>
            )}
          </FileButton>
          <Button
            loading={create.busy}
            onClick={() => void create.submit("create")}
            data-testid="backup-create"
          >
            {t("backups.create")}
          </Button>
        </Group>
      </div>
      <Alert color="info" variant="light">
        {t("backups.help")}
      </Alert>
      <Paper withBorder radius="md" className="admin-table-wrap">
        {backups.length === 0 ? (
          <Text p="lg" c="dimmed" data-testid="backups-empty">
            {t("backups.none")}
          </Text>
        ) : (
          <Table striped verticalSpacing="sm" data-testid="backups-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("backups.name")}</Table.Th>
                <Table.Th visibleFrom="sm">{t("backups.date")}</Table.Th>
                <Table.Th visibleFrom="sm">{t("backups.size")}</Table.Th>
                <Table.Th>
                  <span className="visually-hidden">{t("users.actions")}</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {backups.map((b) => (
                <Table.Tr key={b.name} data-testid="backup-row" data-name={b.name}>
                  <Table.Td>
                    <Text size="sm" ff="monospace" style={{ wordBreak: "break-all" }}>
                      {b.name}
                    </Text>
                    {/* A phone has no room for three columns: squeezed, the name broke every few
                        digits and the date over four lines. Date and size go under the name. */}
                    <Text size="xs" c="dimmed" hiddenFrom="sm" data-testid="backup-facts">
                      {`${when(b.date)} · ${f.size(b.size)}`}
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{when(b.date)}</Table.Td>
                  <Table.Td visibleFrom="sm">{f.size(b.size)}</Table.Td>
                  <Table.Td>
                    {/* Wraps on a phone, so every action stays on the screen. */}
                    <Group gap={4} justify="flex-end" wrap="wrap">
                      <Button
                        size="xs"
                        variant="subtle"
                        onClick={() => void row.submit("download", { name: b.name })}
                        data-testid="backup-download"
                      >
                        {t("backups.download")}
                      </Button>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="warning"
                        onClick={() => setRestoring(b)}
                        data-testid="backup-restore"
                      >
                        {t("backups.restore")}
                      </Button>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="error"
                        onClick={() => setDeleting(b)}
                        data-testid="backup-delete"
                      >
                        {t("common:actions.delete")}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
      <AppDialog
        opened={restoring !== null}
        onClose={() => setRestoring(null)}
        title={t("backups.restoreTitle")}
        submitLabel={t("backups.restore")}
        submitColor="warning"
        keepOpen
        loading={row.busy}
        onSubmit={() => restoring && row.submit("restore", { name: restoring.name })}
        data-testid="backup-restore-dialog"
      >
        <Text>{t("backups.restoreConfirm", { name: restoring?.name ?? "" })}</Text>
      </AppDialog>
      <AppDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t("backups.deleteTitle")}
        submitLabel={t("common:actions.delete")}
        submitColor="error"
        keepOpen
        loading={row.busy}
        onSubmit={() => deleting && row.submit("delete", { name: deleting.name })}
      >
        <Text>{t("backups.deleteConfirm", { name: deleting?.name ?? "" })}</Text>
      </AppDialog>
      <AppDialog
        opened={confirmMealie !== null}
        onClose={() => {
          setConfirmMealie(null);
          resetUpload.current?.();
        }}
        title={t("backups.mealieConfirmTitle")}
        submitLabel={confirmMealie?.checked ? t("backups.mealieImport") : t("backups.upload")}
        onSubmit={async () => {
          if (confirmMealie) await upload(confirmMealie.file);
        }}
        data-testid="backup-mealie-dialog"
      >
        <Text>
          {t(confirmMealie?.checked ? "backups.mealieConfirm" : "backups.mealieUnchecked", {
            name: confirmMealie?.file.name ?? "",
          })}
        </Text>
      </AppDialog>
    </>
  );
}
