/**
 * E-mail texts live in `templates/email/<name>.txt` (and optionally `<name>.html`), so they can be
 * reworded without touching code. The .txt starts with a `Subject:` line and a blank line.
 * Placeholders are `{{name}}`; values are inserted as they are in the text part and HTML-escaped in
 * the HTML part. A placeholder without a value is an error, so a typo never mails "{{link}}".
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";

export interface RenderedEmail {
  subject: string;
  text: string;
  html?: string;
}

const NAME_RE = /^[a-z][a-z0-9-]*$/;
const PLACEHOLDER_RE = /\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}\}/g;

function fill(
  template: string,
  vars: Readonly<Record<string, string>>,
  escape: (s: string) => string,
): string {
  return template.replace(PLACEHOLDER_RE, (_, key: string) => {
    if (!Object.hasOwn(vars, key)) throw new Error(`e-mail template placeholder {{${key}}} has no value`);
    return escape(vars[key]);
  });
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Render `templates/email/<name>` with `vars`. */
export async function renderEmail(
  dir: string,
  name: string,
  vars: Readonly<Record<string, string>>,
): Promise<RenderedEmail> {
  if (!NAME_RE.test(name)) throw new Error(`bad e-mail template name ${JSON.stringify(name)}`);
  const source = (await readFile(join(dir, `${name}.txt`), "utf8")).replace(/\r\n/g, "\n");
  const m = /^Subject:[ \t]*(.*)\n\n?/.exec(source);
  if (!m) throw new Error(`templates/email/${name}.txt must start with a "Subject:" line`);
  const subject = fill(m[1], vars, (s) => s).trim();
  const text = fill(source.slice(m[0].length), vars, (s) => s);
  let html: string | undefined;
  try {
    html = fill(await readFile(join(dir, `${name}.html`), "utf8"), vars, escapeHtml);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  return { subject, text, html };
}
