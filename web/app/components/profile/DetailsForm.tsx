/** Profile details: username, full name, e-mail (spec §5 rules; uniqueness errors in the form, spec §8). */
import { useFetcher } from "react-router";
import { Button, Paper, Stack, TextInput, Title } from "@mantine/core";
import { useT } from "../../lib/i18n.js";
import type { ProfileResult } from "../../lib/profile.server.js";
import { useDataToast } from "../../lib/toast.js";
import { problemText } from "./ProblemText.js";

export function DetailsForm({ user }: { user: { username: string; fullName: string; email: string } }) {
  const t = useT("shell");
  const tc = useT("common");
  const fetcher = useFetcher<ProfileResult>();
  const result = fetcher.data?.intent === "details" ? fetcher.data : undefined;
  useDataToast(result);
  const problems = result?.problems ?? {};
  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={2} size="h3" mb="md">
        {t("profile.details")}
      </Title>
      <fetcher.Form method="post" noValidate>
        <input type="hidden" name="intent" value="details" />
        <Stack gap="sm">
          <TextInput
            name="username"
            label={t("profile.username")}
            defaultValue={user.username}
            autoComplete="username"
            error={problemText(tc, problems.username)}
          />
          <TextInput
            name="fullName"
            label={t("profile.fullName")}
            defaultValue={user.fullName}
            autoComplete="name"
            error={problemText(tc, problems.fullName)}
          />
          <TextInput
            name="email"
            type="email"
            label={t("profile.email")}
            defaultValue={user.email}
            autoComplete="email"
            error={problemText(tc, problems.email)}
          />
          <div>
            <Button type="submit" loading={fetcher.state !== "idle"} data-testid="save-details">
              {t("profile.save")}
            </Button>
          </div>
        </Stack>
      </fetcher.Form>
    </Paper>
  );
}
