/**
 * A new password with its confirmation and spec §5's strength meter, for sign-up, the first-time
 * setup and the password reset. Controlled by the caller; errors come from the caller's rules.
 */
import { Progress, Stack, Text } from "@mantine/core";
import { PasswordField } from "../PasswordField.js";
import { strengthBand } from "../profile/PasswordForm.js";
import { useT } from "../../lib/i18n.js";
import { passwordStrength } from "../../lib/pure-core.js";

export function PasswordFields({
  password,
  confirm,
  onPassword,
  onConfirm,
  onBlur,
  passwordError,
  confirmError,
}: {
  password: string;
  confirm: string;
  onPassword: (v: string) => void;
  onConfirm: (v: string) => void;
  onBlur: (field: "password" | "passwordConfirm") => void;
  passwordError?: string;
  confirmError?: string;
}) {
  const t = useT("onboarding");
  const ts = useT("shell");
  const score = passwordStrength(password);
  const band = strengthBand(score);
  return (
    <Stack gap="sm">
      <PasswordField
        id="new-password"
        name="password"
        label={t("fields.password")}
        autoComplete="new-password"
        required
        value={password}
        onChange={(e) => onPassword(e.currentTarget.value)}
        onBlur={() => onBlur("password")}
        error={passwordError}
        data-testid="field-password"
      />
      <div className="strength" data-testid="password-strength" data-score={score}>
        <Progress value={score} color={band.color} size="sm" aria-label={ts("profile.password.strength")} />
        <Text size="xs" c="dimmed">
          {ts("profile.password.strength")}: {ts(`profile.password.${band.key}`)}
        </Text>
      </div>
      <PasswordField
        id="confirm-password"
        name="passwordConfirm"
        label={t("fields.passwordConfirm")}
        autoComplete="new-password"
        required
        value={confirm}
        onChange={(e) => onConfirm(e.currentTarget.value)}
        onBlur={() => onBlur("passwordConfirm")}
        error={confirmError}
        data-testid="field-passwordConfirm"
      />
    </Stack>
  );
}
