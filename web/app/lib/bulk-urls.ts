/** The bulk import's text box: one URL a line (or several on a line, separated by spaces), http(s) only, each once. */
export const MAX_BULK_URLS = 50;

function isWebAddress(word: string): boolean {
  try {
    const u = new URL(word);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

export function bulkUrls(text: string): { urls: string[]; rejected: string[] } {
  const urls: string[] = [];
  const rejected: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const words = line.split(/\s+/).filter(Boolean);
    if (!words.length) continue;
    // A line of addresses is split at its spaces; a line with anything else in it is named whole
    // ("not a url" is one line not understood, not three words).
    if (!words.every(isWebAddress)) {
      rejected.push(words.join(" "));
      continue;
    }
    for (const word of words) if (!urls.includes(word)) urls.push(word);
  }
  return { urls: urls.slice(0, MAX_BULK_URLS), rejected };
}
