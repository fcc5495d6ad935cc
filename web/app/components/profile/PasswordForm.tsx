/**
 * Password change with the strength meter of spec §5 (core's passwordStrength, shared through
 * lib/pure-core.ts). Rules are checked as the user types once a field has been left, and again on the server.
 */
import { useEffect, useRef, useState, type ChangeEvent } from "react";
import { PasswordField } from "../PasswordField.js";
import { useFetcher } from "react-router";
import { Alert, Button, Paper, Progress, Stack, Text, Title } from "@mantine/core";
import { useT } from "../../lib/i18n.js";
import { passwordStrength } from "../../lib/pure-core.js";
import type { ProfileResult } from "../../lib/profile.server.js";
import { useDataToast } from "../../lib/toast.js";
import { PASSWORD_MIN, check, passwordsMatch, rules } from "../../lib/validation.js";
import { problemText } from "./ProblemText.js";

/** The meter's words and colours by score (Mealie's bands). */
export function strengthBand(score: number): { key: string; color: string } {
  if (score < 50) return { key: "weak", color: "error" };
  if (score < 80) return { key: "good", color: "warning" };
  if (score < 100) return { key: "strong", color: "info" };
  return { key: "veryStrong", color: "success" };
}

export function PasswordForm({ authMethod }: { authMethod: string }) {
  const t = useT("shell");
  const tc = useT("common");
  const fetcher = useFetcher<ProfileResult>();
  const form = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState({ currentPassword: "", newPassword: "", confirmPassword: "" });
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const result = fetcher.data?.intent === "password" ? fetcher.data : undefined;
  useDataToast(result);

  const handled = useRef<unknown>(undefined);
  // After every commit, once per result (fetcher data is not React state: decision 0013).
  useEffect(() => {
    if (result === handled.current) return;
    handled.current = result;
    if (result && "done" in result && result.done) {
      setValues({ currentPassword: "", newPassword: "", confirmPassword: "" });
      setTouched({});
      form.current?.reset();
    }
  });

  if (authMethod !== "Mealie") {
    return (
      <Paper withBorder p="lg" radius="md">
        <Title order={2} size="h3" mb="md">
          {t("profile.password.title")}
        </Title>
        <Alert color="info" variant="light">
          {t("profile.password.notHere", { method: authMethod })}
        </Alert>
      </Paper>
    );
  }

  const local = {
    currentPassword: check(values.currentPassword, rules.required),
    newPassword: check(values.newPassword, rules.required, rules.minLength(PASSWORD_MIN)),
    confirmPassword:
      check(values.confirmPassword, rules.required) ??
      passwordsMatch(values.newPassword, values.confirmPassword),
  };
  const server = result?.problems ?? {};
  const errorOf = (k: keyof typeof local) => problemText(tc, (touched[k] ? local[k] : null) ?? server[k]);
  const score = passwordStrength(values.newPassword);
  const band = strengthBand(score);
  const field = (k: keyof typeof values) => ({
    name: k,
    value: values[k],
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      const value = e.currentTarget.value; // read now: the updater runs after the event is gone
      setValues((v) => ({ ...v, [k]: value }));
    },
    onBlur: () => setTouched((s) => ({ ...s, [k]: true })),
    error: errorOf(k),
    "data-testid": `password-${k}`,
  });

  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={2} size="h3" mb="md">
        {t("profile.password.title")}
      </Title>
      <fetcher.Form
        method="post"
        ref={form}
        noValidate
        onSubmit={(e) => {
          setTouched({ currentPassword: true, newPassword: true, confirmPassword: true });
          if (Object.values(local).some(Boolean)) e.preventDefault();
        }}
      >
        <input type="hidden" name="intent" value="password" />
        <Stack gap="sm">
          <PasswordField
            label={t("profile.password.current")}
            autoComplete="current-password"
            {...field("currentPassword")}
          />
          <PasswordField
            label={t("profile.password.new")}
            autoComplete="new-password"
            {...field("newPassword")}
          />
          <div className="strength" data-testid="password-strength" data-score={score}>
            <Progress
              value={score}
              color={band.color}
              size="sm"
              aria-label={t("profile.password.strength")}
            />
            <Text size="xs" c="dimmed">
              {t("profile.password.strength")}: {t(`profile.password.${band.key}`)}
            </Text>
          </div>
          <PasswordField
            label={t("profile.password.confirm")}
            autoComplete="new-password"
            {...field("confirmPassword")}
          />
          <div>
            <Button type="submit" loading={fetcher.state !== "idle"} data-testid="save-password">
              {t("profile.password.submit")}
            </Button>
          </div>
        </Stack>
      </fetcher.Form>
    </Paper>
  );
}
