/**
 * /forgot-password ("forgot password" on the login page): ask for a reset link by e-mail. The answer
 * is the same whether or not the address has an account (core/users/registration-service.ts), so the
 * page cannot be used to find out who is registered.
 */
import { useState } from "react";
import { Form, Link, useActionData, useNavigation, type MetaFunction } from "react-router";
import { Alert, Anchor, Button, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { PlainLayout } from "../components/shell/PlainLayout.js";
import { problemText } from "../components/profile/ProblemText.js";
import { field } from "../lib/admin.server.js";
import { metaT, useT } from "../lib/i18n.js";
import { check, rules } from "../lib/validation.js";
import type { ActionArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "onboarding")("forgot.title")} | ${metaT(matches)("appName")}` },
];

export async function action({ request, context }: ActionArgs) {
  const form = await request.formData();
  const email = field(form, "email").trim();
  const problem = check(email, rules.required, rules.email);
  if (problem) return { sent: false, problem };
  context.larder.registration.forgotPassword({ email });
  return { sent: true, problem: null };
}

export default function ForgotPassword() {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useT("onboarding");
  const tc = useT("common");
  const [email, setEmail] = useState("");
  return (
    <PlainLayout>
      <main className="auth" id="main" tabIndex={-1}>
        <Paper className="auth__card" withBorder shadow="sm" radius="lg" p="xl">
          <Title order={1} className="auth__title">
            {t("forgot.title")}
          </Title>
          {result?.sent ? (
            <Stack gap="md">
              <Alert color="success" variant="light" role="status" data-testid="forgot-sent">
                {t("forgot.sent")}
              </Alert>
              <Anchor component={Link} to="/login">
                {t("backToLogin")}
              </Anchor>
            </Stack>
          ) : (
            <Form method="post" noValidate>
              <Stack gap="md">
                <Text size="sm" c="dimmed">
                  {t("forgot.intro")}
                </Text>
                <TextInput
                  id="email"
                  name="email"
                  type="email"
                  label={t("fields.email")}
                  autoComplete="email"
                  required
                  value={email}
                  onChange={(e) => setEmail(e.currentTarget.value)}
                  error={problemText(tc, result?.problem)}
                />
                <Button type="submit" fullWidth loading={navigation.state !== "idle"}>
                  {t("forgot.submit")}
                </Button>
                <Anchor component={Link} to="/login" size="sm">
                  {t("backToLogin")}
                </Anchor>
              </Stack>
            </Form>
          )}
        </Paper>
      </main>
    </PlainLayout>
  );
}
