/**
 * The locale formats of lib/format.ts bound to the page's language, for components:
 * `const f = useFormat(); f.number(3); f.date(iso)`.
 */
import { useMemo } from "react";
import {
  formatDate,
  formatDateTime,
  formatDuration,
  formatLocaleNumber,
  formatPercent,
  formatSize,
  localizeQuantity,
} from "./format.js";
import { useLanguage } from "./i18n.js";

export interface Formats {
  lang: string;
  number: (n: number) => string;
  percent: (p: number) => string;
  size: (text: string) => string;
  quantity: (text: string) => string;
  date: (iso: string | Date) => string;
  dateTime: (iso: string | Date) => string;
  duration: (text: string) => string;
}

export function formatsFor(lang: string): Formats {
  return {
    lang,
    number: (n) => formatLocaleNumber(n, lang),
    percent: (p) => formatPercent(p, lang),
    size: (text) => formatSize(text, lang),
    quantity: (text) => localizeQuantity(text, lang),
    date: (iso) => formatDate(iso, lang),
    dateTime: (iso) => formatDateTime(iso, lang),
    duration: (text) => formatDuration(text, lang),
  };
}

export function useFormat(): Formats {
  const { lang } = useLanguage();
  return useMemo(() => formatsFor(lang), [lang]);
}
