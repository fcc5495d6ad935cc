/** The apps a migration reads, by Mealie's migration type (product names: not translated). */
export const APP_NAMES: Record<string, string> = {
  nextcloud: "Nextcloud Cookbook",
  chowdown: "Chowdown",
  copymethat: "Copy Me That",
  paprika: "Paprika",
  mealie_alpha: "Mealie (pre-v1)",
  tandoor: "Tandoor Recipes",
  plantoeat: "Plan to Eat",
  myrecipebox: "My Recipe Box",
  recipekeeper: "Recipe Keeper",
  cookn: "Cook'n",
  mealie_backup: "Mealie backup",
  cooklang: "Cooklang",
};

/**
 * A migration report's title with the app's product name: the report keeps Mealie's name for clients
 * ("Copymethat Migration", its type in Python's title case); `null` when the name is not one of those.
 */
export function migrationAppOf(reportName: string): string | null {
  const type = reportName.toLowerCase().replace(/ migration$/, "");
  return Object.hasOwn(APP_NAMES, type) && reportName.toLowerCase().endsWith(" migration")
    ? APP_NAMES[type]
    : null;
}
