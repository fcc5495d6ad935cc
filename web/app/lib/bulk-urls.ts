/** The bulk import's text box: one URL a line (or separated by spaces), http(s) only, each once. */
export const MAX_BULK_URLS = 50;

export function bulkUrls(text: string): { urls: string[]; rejected: string[] } {
  const urls: string[] = [];
  const rejected: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let ok = false;
    try {
      const u = new URL(word);
      ok = u.protocol === "http:" || u.protocol === "https:";
    } catch {
      ok = false;
    }
    if (!ok) rejected.push(word);
    else if (!urls.includes(word)) urls.push(word);
  }
  return { urls: urls.slice(0, MAX_BULK_URLS), rejected };
}
