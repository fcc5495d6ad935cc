/**
 * `gotify://` and `gotifys://` (Apprise): `gotify://host[:port][/path]/token`, the last path segment being
 * the application token. Options: priority (low, moderate, normal, high, emergency or 0–10; default
 * normal), format=markdown. POSTs {title, message, priority} to `<path>/message` with `X-Gotify-Key`.
 */
import { definePlugin } from "../../../core/plugins/define.js";
import { invalid, origin, parseAppriseUrl, SEND_TIMEOUT_MS } from "../apprise-url.js";

const PRIORITIES: Record<string, number> = { low: 1, moderate: 3, normal: 5, high: 8, emergency: 10 };

function read(raw: string) {
  const u = parseAppriseUrl(raw);
  if (!u.host) throw invalid(u.scheme, "a host is required");
  const token = u.path.at(-1);
  if (!token || !/^[A-Za-z0-9._-]{8,}$/.test(token))
    throw invalid(u.scheme, "the application token (the last path segment) is missing");
  const prefix = u.path.slice(0, -1).map(encodeURIComponent).join("/");
  const endpoint = `${origin(u, u.scheme === "gotifys")}/${prefix ? `${prefix}/` : ""}message`;
  const p = u.query.get("priority")?.trim().toLowerCase();
  let priority = PRIORITIES.normal;
  if (p) {
    const n = /^\d{1,2}$/.test(p) ? Number(p) : PRIORITIES[p];
    if (n === undefined || n > 10)
      throw invalid(u.scheme, "priority must be low, moderate, normal, high, emergency or 0–10");
    priority = n;
  }
  return { u, token, endpoint, priority };
}

export default definePlugin({
  kind: "notifier",
  name: "gotify",
  description: "Sends a Gotify message (gotify://, gotifys://)",
  schemes: ["gotify", "gotifys"],
  check: (url) => [read(url).endpoint],
  async send(url, n, ctx) {
    const { u, token, endpoint, priority } = read(url);
    const payload: Record<string, unknown> = { title: n.title, message: n.body, priority };
    if ((u.query.get("format") ?? "").toLowerCase() === "markdown")
      payload.extras = { "client::display": { contentType: "text/markdown" } };
    await ctx.fetch(endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Gotify-Key": token },
      body: JSON.stringify(payload),
      timeoutMs: SEND_TIMEOUT_MS,
      maxBytes: 256 * 1024,
      signal: ctx.signal,
    });
  },
});
