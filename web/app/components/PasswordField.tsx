/**
 * Mantine's password input with its show/hide button named in the page's language and reachable from
 * the keyboard (Mantine labels it in English and leaves it out of the tab order).
 */
import { PasswordInput, type PasswordInputProps } from "@mantine/core";
import { useT } from "../lib/i18n.js";

export function PasswordField(props: PasswordInputProps) {
  const t = useT("common");
  return (
    <PasswordInput
      visibilityToggleButtonProps={{ "aria-label": t("actions.showPassword"), tabIndex: 0 }}
      {...props}
    />
  );
}
