/**
 * The pure core modules the UI shares with the server instead of copying them (decision 0013): the route
 * guards and the recipe menu of spec §6, the password strength of spec §5, the theme colours and the
 * quantity arithmetic shared with ingredient display, and how core names a write the disk refused (for
 * the forms' messages), and the query-filter parser (so the plan-rule builder reads a filter exactly as
 * core will). vite.config.ts allow-lists
 * exactly these files; every other core import in web/app stays type-only.
 */
/* eslint-disable no-restricted-imports -- pure modules allow-listed in vite.config.ts (PURE_CORE) */
export { checkGuards, GUARD_NAMES, type RouteGuards, type GuardName } from "../../../core/policy/guards.js";
export { passwordStrength } from "../../../core/auth/password-strength.js";
export { recipeMenuItems, type RecipeMenu, type RecipeMenuItem } from "../../../core/policy/recipes.js";
export { THEME_DEFAULTS, themeFromSettings, type ThemeColors } from "../../../core/theme.js";
export { limitDenominator } from "../../../core/recipes/display.js";
export { roundQuantity } from "../../../core/recipes/quantity.js";
export { storageError } from "../../../core/errors.js";
export { queryFilterParts, type QueryFilterPart } from "../../../core/query/query-filter.js";
export { MEALIE_INTERFACE_LOCALES, type MealieInterfaceLocale } from "../../../core/labels/locales.js";
/* eslint-enable no-restricted-imports */
