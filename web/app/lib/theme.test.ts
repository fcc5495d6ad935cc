import { describe, expect, it } from "vitest";
import { THEME_DEFAULTS } from "./pure-core.js";
import { buildTheme, themeKeyParts } from "./theme.js";

describe("theme colour keys", () => {
  it("read as a colour, a mode and the variable that sets them, for the site settings page", () => {
    expect(themeKeyParts("lightPrimary")).toEqual({
      mode: "light",
      color: "primary",
      variable: "THEME_LIGHT_PRIMARY",
    });
    expect(themeKeyParts("darkWarning")).toEqual({
      mode: "dark",
      color: "warning",
      variable: "THEME_DARK_WARNING",
    });
  });

  it("are null in another form, so the page shows them as they came", () => {
    expect(themeKeyParts("lightMauve")).toBeNull();
    expect(themeKeyParts("primary")).toBeNull();
  });

  it("cover every colour the API answers", () => {
    for (const key of Object.keys(THEME_DEFAULTS)) expect(themeKeyParts(key), key).not.toBeNull();
  });
});

describe("the Mantine theme", () => {
  const theme = buildTheme(THEME_DEFAULTS);

  it("lets people who asked their system for less motion have dialogs and menus without it", () => {
    expect(theme.respectReducedMotion).toBe(true);
  });

  it("opens every menu on its first item (no focus placeholder), and on ArrowDown from its button", () => {
    expect(theme.components?.Menu?.defaultProps).toMatchObject({ withInitialFocusPlaceholder: false });
    expect(typeof theme.components?.MenuTarget?.defaultProps?.onKeyDown).toBe("function");
  });
});
