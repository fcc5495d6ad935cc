/**
 * /household/members (spec §2, §6): the household's members and their permissions (manage household,
 * manage group, invite, organize). Nobody changes their own (spec §6). Invitations (create a link,
 * send it by e-mail when SMTP is configured) for those who may invite. Guard: canManage.
 */
import { useState } from "react";
import { data as reply, useLoaderData, type MetaFunction } from "react-router";
import {
  Alert,
  Button,
  Checkbox,
  Code,
  Group,
  NumberInput,
  Paper,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { DefaultLayout } from "../components/shell/DefaultLayout.js";
import { SettingsFrame } from "../components/settings/SettingsFrame.js";
import { submitForm, useOptimistic, useSettingsFetcher } from "../components/settings/common.js";
import { AppDialog } from "../components/dialog/AppDialog.js";
import { metaT, useT } from "../lib/i18n.js";
import { serverT } from "../lib/i18n.server.js";
import { toast } from "../lib/toast.js";
import { field, flag, settingsViewer, settingsWrite } from "../lib/settings.server.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "household")("nav.members")} | ${metaT(matches)("appName")}` },
];

const GUARDS = { canManage: true } as const;
const FLAGS = ["canManageHousehold", "canManage", "canInvite", "canOrganize"] as const;

export async function loader(args: LoaderArgs) {
  const { actor, shell } = await settingsViewer(args, GUARDS);
  const larder = args.context.larder;
  const members = larder.membership
    .householdMembers(actor)
    .map((u) => ({
      id: u.id,
      username: u.username,
      fullName: u.fullName || u.username,
      email: u.email,
      admin: u.admin,
      self: u.id === actor.user.id,
      canManageHousehold: u.canManageHousehold,
      canManage: u.canManage,
      canInvite: u.canInvite,
      canOrganize: u.canOrganize,
    }))
    .sort((a, b) => a.fullName.localeCompare(b.fullName));
  const canInvite = actor.user.canInvite;
  const invitations = canInvite
    ? larder.registration.listInvitations(actor).map((i) => ({
        token: i.token,
        usesLeft: i.usesLeft,
        link: larder.email.invitationLink(i.token),
      }))
    : [];
  return { shell, members, canInvite, invitations, emailReady: larder.email.ready };
}

export async function action(args: ActionArgs) {
  const { actor } = await settingsViewer(args, GUARDS);
  const form = await args.request.formData();
  const t = serverT(args.request, "household");
  const larder = args.context.larder;
  const intent = field(form, "intent");
  switch (intent) {
    case "permissions": {
      const body: Record<string, unknown> = { userId: field(form, "userId") };
      for (const k of FLAGS) body[k] = flag(form, k);
      return settingsWrite(args.context, intent, t("members.saved"), () =>
        larder.membership.setPermissions(actor, body),
      );
    }
    case "invite":
      return settingsWrite(args.context, intent, t("invite.created"), async () => {
        const made = await larder.registration.createInvitation(actor, { uses: Number(field(form, "uses")) });
        return { token: made.token, link: larder.email.invitationLink(made.token) };
      });
    case "emailInvite": {
      const result = await settingsWrite(args.context, intent, t("invite.sent"), () =>
        larder.registration.emailInvitation(actor, {
          email: field(form, "email").trim(),
          token: field(form, "token"),
        }),
      );
      const sent = result.value as { success: boolean; error: string | null } | undefined;
      if (result.ok && sent && !sent.success)
        return {
          intent,
          ok: false,
          toast: { type: "error" as const, message: sent.error ?? t("invite.notSent") },
        };
      return result;
    }
    default:
      throw reply("Unknown intent", { status: 400 });
  }
}

type Member = Awaited<ReturnType<typeof loader>>["members"][number];

function MemberRow({ m }: { m: Member }) {
  const t = useT("household");
  const fetcher = useSettingsFetcher();
  // The switches show what was just set while the server's answer is on its way.
  const [flags, setFlags] = useOptimistic(
    fetcher,
    Object.fromEntries(FLAGS.map((f) => [f, m[f]])) as Record<(typeof FLAGS)[number], boolean>,
  );
  const value = (k: (typeof FLAGS)[number]) => flags[k];
  return (
    <Table.Tr data-testid={`member-row-${m.username}`}>
      <Table.Td>
        <Text fw={500}>{m.fullName}</Text>
        <Text size="xs" c="dimmed">
          {m.username}
          {m.self ? ` · ${t("members.you")}` : ""}
        </Text>
      </Table.Td>
      {FLAGS.map((k) => (
        <Table.Td key={k}>
          <Checkbox
            aria-label={t("members.flagFor", { flag: t(`members.flags.${k}`), name: m.fullName })}
            // Shown on a phone only, where the column headings fold away (settings.css).
            label={<span className="members__flag">{t(`members.flags.${k}`)}</span>}
            checked={value(k)}
            disabled={m.self}
            data-testid={`perm-${k}`}
            onChange={(e) => {
              const set = { ...flags, [k]: e.currentTarget.checked };
              setFlags(set);
              const next: Record<string, string | undefined> = { intent: "permissions", userId: m.id };
              for (const f of FLAGS) next[f] = set[f] ? "on" : undefined;
              submitForm(fetcher, next);
            }}
          />
        </Table.Td>
      ))}
    </Table.Tr>
  );
}

async function copy(text: string, tc: (k: string) => string): Promise<void> {
  if (typeof navigator === "undefined" || !navigator.clipboard)
    return toast.error(tc("clipboard.notSupported"));
  try {
    await navigator.clipboard.writeText(text);
    toast.success(tc("clipboard.copied"));
  } catch {
    toast.error(tc("clipboard.failed"));
  }
}

function Invitations({
  invitations,
  emailReady,
}: {
  invitations: { token: string; usesLeft: number; link: string }[];
  emailReady: boolean;
}) {
  const t = useT("household");
  const tc = useT("common");
  const create = useSettingsFetcher();
  const send = useSettingsFetcher();
  const [uses, setUses] = useState<number>(1);
  const [emailFor, setEmailFor] = useState<string | null>(null);
  const [email, setEmail] = useState("");
  const created =
    create.data?.intent === "invite" && create.data.ok ? (create.data.value as { link: string }) : null;
  return (
    <Paper withBorder p="lg" radius="md" data-testid="invitations">
      <Title order={2} size="h3" mb="xs">
        {t("invite.title")}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t("invite.intro")}
      </Text>
      <Group align="flex-end" gap="sm">
        <NumberInput
          label={t("invite.uses")}
          value={uses}
          onChange={(v) => setUses(Number(v) || 1)}
          min={1}
          max={1000}
          w={140}
          data-testid="invite-uses"
        />
        <Button
          loading={create.state !== "idle"}
          onClick={() => submitForm(create, { intent: "invite", uses })}
          data-testid="invite-create"
        >
          {t("invite.create")}
        </Button>
      </Group>
      {created ? (
        <Alert color="success" variant="light" mt="md" data-testid="invite-created">
          <Group gap="xs" wrap="nowrap">
            <Code block style={{ flex: 1, overflowX: "auto" }} data-testid="invite-link">
              {created.link}
            </Code>
            <Button size="xs" variant="light" onClick={() => void copy(created.link, tc)}>
              {tc("actions.copy")}
            </Button>
          </Group>
        </Alert>
      ) : null}
      {!emailReady ? (
        <Text size="sm" c="dimmed" mt="md">
          {t("invite.noEmail")}
        </Text>
      ) : null}
      {invitations.length > 0 ? (
        <Table mt="md" className="settings__table" data-testid="invite-list">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("invite.link")}</Table.Th>
              <Table.Th w={110}>{t("invite.usesLeft")}</Table.Th>
              <Table.Th w={1}>
                <span className="visually-hidden">{t("data:fields.actions")}</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invitations.map((i) => (
              <Table.Tr key={i.token}>
                <Table.Td>
                  <Text size="sm" ff="monospace" style={{ overflowWrap: "anywhere" }}>
                    {i.link}
                  </Text>
                </Table.Td>
                <Table.Td>{i.usesLeft}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button size="xs" variant="subtle" onClick={() => void copy(i.link, tc)}>
                      {tc("actions.copy")}
                    </Button>
                    {emailReady ? (
                      <Button size="xs" variant="subtle" onClick={() => setEmailFor(i.token)}>
                        {t("invite.email")}
                      </Button>
                    ) : null}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      <AppDialog
        opened={emailFor !== null}
        onClose={() => setEmailFor(null)}
        title={t("invite.email")}
        submitLabel={t("invite.send")}
        loading={send.state !== "idle"}
        canSubmit={/\S+@\S+\.\S+/.test(email)}
        onSubmit={() => emailFor && submitForm(send, { intent: "emailInvite", token: emailFor, email })}
      >
        <TextInput
          type="email"
          label={t("invite.emailAddress")}
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          data-autofocus
        />
      </AppDialog>
    </Paper>
  );
}

export default function Members() {
  const { shell, members, canInvite, invitations, emailReady } = useLoaderData<typeof loader>();
  const t = useT("household");
  return (
    <DefaultLayout shell={shell}>
      <SettingsFrame
        section="household"
        title={t("nav.members")}
        intro={t("members.intro")}
        testId="members-page"
      >
        <Paper withBorder radius="md" style={{ overflowX: "auto" }}>
          <Table className="settings__table members-table" striped data-testid="members-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("members.name")}</Table.Th>
                {FLAGS.map((k) => (
                  <Table.Th key={k}>{t(`members.flags.${k}`)}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {members.map((m) => (
                <MemberRow key={m.id} m={m} />
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
        <Text size="xs" c="dimmed">
          {t("members.ownNote")}
        </Text>
        {canInvite ? <Invitations invitations={invitations} emailReady={emailReady} /> : null}
      </SettingsFrame>
    </DefaultLayout>
  );
}
