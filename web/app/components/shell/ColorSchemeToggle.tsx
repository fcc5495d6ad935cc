/** The dark/light toggle (spec §2 Layouts, §4): flips the computed scheme; the cookie keeps it (lib/color-scheme.ts). */
import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from "@mantine/core";
import { Hint } from "../Hint.js";
import { useT } from "../../lib/i18n.js";
import { MoonIcon, SunIcon } from "./ShellIcons.js";

export function ColorSchemeToggle() {
  const t = useT("shell");
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme("light", { getInitialValueInEffect: true });
  const next = computed === "dark" ? "light" : "dark";
  const label = next === "dark" ? t("theme.dark") : t("theme.light");
  return (
    <Hint label={label}>
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={label}
        data-testid="color-scheme-toggle"
        onClick={() => setColorScheme(next)}
      >
        {computed === "dark" ? <SunIcon /> : <MoonIcon />}
      </ActionIcon>
    </Hint>
  );
}
