/**
 * API tokens (spec §1, §7): create (the token is shown once, with a copy button), list, delete with a
 * confirmation. Clipboard messages of spec §8.
 */
import { useState } from "react";
import { useFetcher } from "react-router";
import {
  ActionIcon,
  Alert,
  Button,
  Code,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { TrashIcon } from "../shell/ShellIcons.js";
import { useT } from "../../lib/i18n.js";
import type { ProfileResult } from "../../lib/profile.server.js";
import { toast, useDataToast } from "../../lib/toast.js";
import { problemText } from "./ProblemText.js";
import { useFormat } from "../../lib/use-format.js";

export interface TokenRow {
  id: number;
  name: string;
  createdAt: string | null;
}

async function copy(text: string, t: (k: string) => string): Promise<void> {
  if (typeof navigator === "undefined" || !navigator.clipboard)
    return toast.error(t("common:clipboard.notSupported"));
  try {
    await navigator.clipboard.writeText(text);
    toast.success(t("common:clipboard.copied"));
  } catch {
    toast.error(t("common:clipboard.failed"));
  }
}

export function ApiTokens({ tokens }: { tokens: TokenRow[] }) {
  const t = useT("shell");
  const tc = useT("common");
  const f = useFormat();
  const create = useFetcher<ProfileResult>();
  const remove = useFetcher<ProfileResult>();
  const [deleting, setDeleting] = useState<TokenRow | null>(null);
  const created = create.data?.intent === "createToken" ? create.data : undefined;
  useDataToast(created);
  useDataToast(remove.data);

  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={2} size="h3" mb="xs">
        {t("profile.tokens.title")}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t("profile.tokens.intro")}
      </Text>
      <create.Form method="post" noValidate key={created?.created?.token ?? "form"}>
        <input type="hidden" name="intent" value="createToken" />
        <Group align="flex-start" gap="sm">
          <TextInput
            name="name"
            aria-label={t("profile.tokens.name")}
            placeholder={t("profile.tokens.name")}
            error={problemText(tc, created?.problems?.name)}
            style={{ flex: 1 }}
            data-testid="token-name"
          />
          <Button type="submit" loading={create.state !== "idle"} data-testid="create-token">
            {t("profile.tokens.create")}
          </Button>
        </Group>
      </create.Form>
      {created?.created ? (
        <Alert color="success" variant="light" mt="md" data-testid="created-token">
          <Stack gap="xs">
            <Text size="sm" fw={600}>
              {t("profile.tokens.copyNow")}
            </Text>
            <Group gap="xs" wrap="nowrap">
              {/* minWidth 0 lets the token wrap inside the row: a phone's screen is narrower than a token. */}
              <Code
                block
                style={{ flex: 1, minWidth: 0, whiteSpace: "pre-wrap", wordBreak: "break-all" }}
                data-testid="created-token-value"
              >
                {created.created.token}
              </Code>
              <Button size="xs" variant="light" onClick={() => void copy(created.created!.token, tc)}>
                {tc("actions.copy")}
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : null}
      {tokens.length === 0 ? (
        <Text size="sm" c="dimmed" mt="md">
          {t("profile.tokens.none")}
        </Text>
      ) : (
        <Table mt="md" data-testid="token-list">
          <Table.Tbody>
            {tokens.map((tok) => (
              <Table.Tr key={tok.id}>
                <Table.Td>
                  <Text fw={500}>{tok.name}</Text>
                  {tok.createdAt ? (
                    <Text size="xs" c="dimmed">
                      {t("profile.tokens.createdAt", { date: f.date(tok.createdAt) })}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td w={48}>
                  <Tooltip label={t("profile.tokens.delete")}>
                    <ActionIcon
                      variant="subtle"
                      color="error"
                      aria-label={t("profile.tokens.delete")}
                      onClick={() => setDeleting(tok)}
                    >
                      <TrashIcon />
                    </ActionIcon>
                  </Tooltip>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <AppDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t("profile.tokens.delete")}
        submitLabel={tc("actions.delete")}
        submitColor="error"
        loading={remove.state !== "idle"}
        onSubmit={() => {
          if (deleting) remove.submit({ intent: "deleteToken", id: String(deleting.id) }, { method: "post" });
        }}
      >
        <Text>{t("profile.tokens.deleteConfirm", { name: deleting?.name ?? "" })}</Text>
      </AppDialog>
    </Paper>
  );
}
