/**
 * Rendering and sanitising Markdown is a large part of a recipe page's server time, and it depends on the
 * text alone, never on the viewer or the language: each distinct text is rendered once and remembered (a
 * changed recipe has a changed text, so nothing goes stale). Bounded: the memory is dropped when full.
 */
import { renderMarkdown } from "./markdown.js";

const MEMO_ENTRIES = 20_000;

export function memoText(
  fn: (text: string | null | undefined) => string,
): (text: string | null | undefined) => string {
  const done = new Map<string, string>();
  return (text) => {
    if (text == null) return fn(text);
    let out = done.get(text);
    if (out === undefined) {
      out = fn(text);
      if (done.size >= MEMO_ENTRIES) done.clear();
      done.set(text, out);
    }
    return out;
  };
}

/** Recipe texts' Markdown rendered once per text, shared by the page and its structured data. */
export const renderMarkdownMemo = memoText(renderMarkdown);
