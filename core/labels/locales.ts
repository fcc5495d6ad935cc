/** The 41 locales Mealie accepts (mealie-api-notes §15); seeders and registration check against them. */
export const MEALIE_LOCALES = [
  "af-ZA",
  "ar-SA",
  "bg-BG",
  "ca-ES",
  "cs-CZ",
  "da-DK",
  "de-DE",
  "el-GR",
  "en-GB",
  "en-US",
  "es-ES",
  "fi-FI",
  "fr-BE",
  "fr-CA",
  "fr-FR",
  "gl-ES",
  "he-IL",
  "hr-HR",
  "hu-HU",
  "is-IS",
  "it-IT",
  "ja-JP",
  "ko-KR",
  "lt-LT",
  "lv-LV",
  "nl-NL",
  "no-NO",
  "pl-PL",
  "pt-BR",
  "pt-PT",
  "ro-RO",
  "ru-RU",
  "sk-SK",
  "sl-SI",
  "sr-SP",
  "sv-SE",
  "tr-TR",
  "uk-UA",
  "vi-VN",
  "zh-CN",
  "zh-TW",
] as const;
export type MealieLocale = (typeof MEALIE_LOCALES)[number];

/**
 * The 42 locales Mealie's web interface offers: the 41 above plus Estonian, which has interface text but
 * no seed data (so the seeders and registration still refuse it). The web UI's language dialog lists these.
 */
export const MEALIE_INTERFACE_LOCALES = [...MEALIE_LOCALES, "et-EE"] as const;
export type MealieInterfaceLocale = (typeof MEALIE_INTERFACE_LOCALES)[number];

export function isMealieLocale(v: unknown): v is MealieLocale {
  return typeof v === "string" && (MEALIE_LOCALES as readonly string[]).includes(v);
}
