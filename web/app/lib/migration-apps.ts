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
