/**
 * /admin/manage/users (spec §2, §5, §6): every user of every group; create, edit (details, group,
 * household, permission flags), unlock, a password reset link, delete. The user form follows spec §5
 * (required fields, e-mail pattern, no whitespace in usernames, password at least 8; uniqueness is the
 * server's). An admin's own permissions are not editable here (spec §6), and core refuses deleting
 * oneself or the super user, and whatever a demo forbids.
 */
import { useState } from "react";
import { data, useLoaderData, type MetaFunction } from "react-router";
import {
  ActionIcon,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Menu,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { AppDialog } from "../components/dialog/AppDialog.js";
import { UserFormDialog, type UserFormInitial } from "../components/admin/UserFormDialog.js";
import { useFormAction } from "../components/admin/use-form-action.js";
import { attempt, field, flag } from "../lib/admin.server.js";
import { requireGuards } from "../lib/guards.server.js";
import { metaT, useT } from "../lib/i18n.js";
import { serverT } from "../lib/i18n.server.js";
import { useSession } from "../lib/use-session.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "admin")("users.title")} | ${metaT(matches)("appName")}` },
];

export async function loader(args: LoaderArgs) {
  const actor = await requireGuards(args, { admin: true });
  const { larder } = args.context;
  const groups = larder.groupAdmin.groups(actor);
  return {
    users: larder.accounts.all(actor).map((u) => {
      const found = larder.directory.householdById(u.householdId);
      return {
        id: u.id,
        username: u.username,
        fullName: u.fullName,
        email: u.email,
        authMethod: u.authMethod,
        group: found?.group.name ?? "",
        household: found?.household.name ?? "",
        admin: u.admin,
        advanced: u.advanced,
        canInvite: u.canInvite,
        canManage: u.canManage,
        canManageHousehold: u.canManageHousehold,
        canOrganize: u.canOrganize,
        locked: larder.auth.isLocked(u.id),
      };
    }),
    groups: groups.map((g) => ({
      name: g.name,
      households: (g.households ?? []).map((h) => h.name),
    })),
  };
}

const FLAGS = ["admin", "advanced", "canInvite", "canManage", "canManageHousehold", "canOrganize"] as const;

export async function action(args: ActionArgs) {
  const actor = await requireGuards(args, { admin: true });
  const { larder } = args.context;
  const form = await args.request.formData();
  const t = serverT(args.request, "admin");
  const how = { t, log: args.context.larder.log };
  const intent = field(form, "intent");
  const id = field(form, "id");
  const flags = Object.fromEntries(FLAGS.map((f) => [f, flag(form, f)]));
  switch (intent) {
    case "create":
      return attempt(
        intent,
        how,
        () =>
          larder.accounts.create(actor, {
            username: field(form, "username"),
            fullName: field(form, "fullName"),
            email: field(form, "email"),
            password: field(form, "password"),
            group: field(form, "group") || null,
            household: field(form, "household") || null,
            ...flags,
          }),
        (u) => t("users.created", { name: u.username }),
      );
    case "update": {
      // Spec §6: nobody changes their own permissions; an admin's own flags are left as they are.
      const self = id === actor.user.id;
      return attempt(
        intent,
        how,
        () =>
          larder.accounts.update(actor, id, {
            username: field(form, "username"),
            fullName: field(form, "fullName"),
            email: field(form, "email"),
            group: field(form, "group") || null,
            household: field(form, "household") || null,
            ...(self ? {} : flags),
          }),
        (u) => t("users.updated", { name: u.username }),
      );
    }
    case "unlock":
      return attempt(intent, how, () => larder.accounts.unlockOne(actor, id), t("users.unlocked"));
    case "resetLink":
      return attempt(intent, how, async () => {
        const user = larder.accounts.visibleUser(actor, id);
        const token = await larder.accounts.resetTokenFor(actor, user.email);
        return { link: larder.email.passwordResetLink(token), username: user.username };
      });
    case "delete":
      return attempt(
        intent,
        how,
        () => larder.accounts.remove(actor, id),
        (u) => t("users.deleted", { name: u.username }),
      );
    default:
      throw data("Unknown intent", { status: 400 });
  }
}

type UserRow = Awaited<ReturnType<typeof loader>>["users"][number];

function ResetLinkDialog({ link, onClose }: { link: string | null; onClose: () => void }) {
  const t = useT("admin");
  return (
    <AppDialog opened={link !== null} onClose={onClose} title={t("users.resetLinkTitle")}>
      <Stack gap="sm">
        <Text size="sm">{t("users.resetLinkHelp")}</Text>
        <Code block data-testid="reset-link" style={{ wordBreak: "break-all", whiteSpace: "pre-wrap" }}>
          {link}
        </Code>
        <CopyButton value={link ?? ""}>
          {({ copied, copy }) => (
            <Button variant="light" onClick={copy}>
              {copied ? t("common:clipboard.copied") : t("common:actions.copy")}
            </Button>
          )}
        </CopyButton>
      </Stack>
    </AppDialog>
  );
}

export default function AdminUsers() {
  const { users, groups } = useLoaderData<typeof loader>();
  const t = useT("admin");
  const session = useSession();
  const [editing, setEditing] = useState<UserFormInitial | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<UserRow | null>(null);
  const [resetLink, setResetLink] = useState<string | null>(null);
  const rowAction = useFormAction<{ link?: string }>((r) => {
    if (r.intent === "resetLink" && r.value?.link) setResetLink(r.value.link);
    if (r.intent === "delete") setDeleting(null);
  });

  return (
    <>
      <div className="page__header">
        <div>
          <Title order={1} className="page__title">
            {t("users.title")}
          </Title>
          <p className="page__subtitle">{t("users.count", { count: users.length })}</p>
        </div>
        <Button onClick={() => setCreating(true)} data-testid="user-create">
          {t("users.create")}
        </Button>
      </div>
      <Paper withBorder radius="md" className="admin-table-wrap">
        <Table striped highlightOnHover verticalSpacing="sm" data-testid="users-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("users.name")}</Table.Th>
              <Table.Th visibleFrom="sm">{t("users.email")}</Table.Th>
              <Table.Th visibleFrom="sm">{t("users.groupHousehold")}</Table.Th>
              <Table.Th>{t("users.status")}</Table.Th>
              <Table.Th>
                <span className="visually-hidden">{t("users.actions")}</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {users.map((u) => (
              <Table.Tr key={u.id} data-testid={`user-row-${u.username}`}>
                <Table.Td>
                  <Text fw={600} size="sm">
                    {u.fullName || u.username}
                  </Text>
                  <Text size="xs" c="dimmed">
                    @{u.username}
                  </Text>
                  {/* On a phone the e-mail and household columns fold into the name's cell. */}
                  <Text size="xs" c="dimmed" hiddenFrom="sm" style={{ overflowWrap: "anywhere" }}>
                    {u.email} · {u.group} / {u.household}
                  </Text>
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Text size="sm">{u.email}</Text>
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Text size="sm">{u.group}</Text>
                  <Text size="xs" c="dimmed">
                    {u.household}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {u.admin ? <Badge color="primary">{t("users.flags.admin")}</Badge> : null}
                    {u.locked ? <Badge color="error">{t("users.locked")}</Badge> : null}
                    {u.authMethod !== "Mealie" ? <Badge variant="outline">{u.authMethod}</Badge> : null}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={t("users.actionsFor", { name: u.username })}
                        data-testid={`user-menu-${u.username}`}
                      >
                        ⋯
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item onClick={() => setEditing(u)} data-testid="user-edit">
                        {t("common:actions.edit")}
                      </Menu.Item>
                      {u.locked ? (
                        <Menu.Item onClick={() => void rowAction.submit("unlock", { id: u.id })}>
                          {t("users.unlock")}
                        </Menu.Item>
                      ) : null}
                      {u.authMethod === "Mealie" ? (
                        <Menu.Item
                          onClick={() => void rowAction.submit("resetLink", { id: u.id })}
                          data-testid="user-reset-link"
                        >
                          {t("users.resetLink")}
                        </Menu.Item>
                      ) : null}
                      {u.id !== session?.id ? (
                        <Menu.Item color="error" onClick={() => setDeleting(u)} data-testid="user-delete">
                          {t("common:actions.delete")}
                        </Menu.Item>
                      ) : null}
                    </Menu.Dropdown>
                  </Menu>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
      <UserFormDialog
        opened={creating}
        onClose={() => setCreating(false)}
        groups={groups}
        initial={null}
        self={false}
      />
      <UserFormDialog
        opened={editing !== null}
        onClose={() => setEditing(null)}
        groups={groups}
        initial={editing}
        self={editing?.id === session?.id}
      />
      <AppDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t("users.deleteTitle")}
        submitLabel={t("common:actions.delete")}
        submitColor="error"
        keepOpen
        loading={rowAction.busy}
        onSubmit={() => deleting && rowAction.submit("delete", { id: deleting.id })}
        data-testid="user-delete-dialog"
      >
        <Text>{t("users.deleteConfirm", { name: deleting?.username ?? "" })}</Text>
      </AppDialog>
      <ResetLinkDialog link={resetLink} onClose={() => setResetLink(null)} />
    </>
  );
}
