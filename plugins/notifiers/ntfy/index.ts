/**
 * `ntfy://` and `ntfys://` (Apprise): `ntfy://topic` publishes on ntfy.sh; `ntfy://host[:port]/topic[/topic…]`
 * on a server of one's own; `user:password@` for basic auth, `tk_…@` or `?token=` for an access token.
 * Options: priority (min, low, default, high, max or 1–5), tags, click, delay, email, attach, avatar_url.
 * One JSON publish per topic, to the server's root.
 */
import { definePlugin } from "../../../core/plugins/define.js";
import type { PluginContext } from "../../../core/plugins/kinds.js";
import { apiBase, basicAuth, invalid, origin, parseAppriseUrl, SEND_TIMEOUT_MS } from "../apprise-url.js";

const PRIORITIES: Record<string, number> = {
  min: 1,
  low: 2,
  default: 3,
  normal: 3,
  high: 4,
  max: 5,
  urgent: 5,
  emergency: 5,
};
const TOPIC_RE = /^[-_A-Za-z0-9]{1,64}$/;

function read(raw: string, ctx: Pick<PluginContext, "config">) {
  const u = parseAppriseUrl(raw);
  // No path: the "host" is the topic, on the public server.
  const cloud = u.path.length === 0;
  const topics = cloud ? [u.hostAsWritten] : u.path;
  if (topics.length === 0 || !topics.every((t) => TOPIC_RE.test(t)))
    throw invalid(u.scheme, "each topic must be 1–64 letters, digits, '-' or '_'");
  const base = cloud ? apiBase(ctx, "NTFY", "https://ntfy.sh") : origin(u, u.scheme === "ntfys");
  const token = u.query.get("token") ?? (u.user.startsWith("tk_") && !u.password ? u.user : null);
  if (token !== null && !/^[A-Za-z0-9._~+/=-]{1,256}$/.test(token))
    throw invalid(u.scheme, "the access token holds characters a token cannot have");
  const auth: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : basicAuth(u);
  const p = u.query.get("priority")?.trim().toLowerCase();
  let priority: number | undefined;
  if (p) {
    priority = /^[1-5]$/.test(p) ? Number(p) : PRIORITIES[p];
    if (priority === undefined)
      throw invalid(u.scheme, "priority must be min, low, default, high, max or 1–5");
  }
  return { u, base, topics, auth, priority };
}

export default definePlugin({
  kind: "notifier",
  name: "ntfy",
  description: "Publishes to an ntfy topic (ntfy://, ntfys://)",
  schemes: ["ntfy", "ntfys"],
  check: (url, ctx) => [read(url, ctx).base],
  async send(url, n, ctx) {
    const { u, base, topics, auth, priority } = read(url, ctx);
    const tags = u.query.get("tags");
    for (const topic of topics) {
      const payload: Record<string, unknown> = { topic, message: n.body };
      if (n.title) payload.title = n.title;
      if (priority !== undefined) payload.priority = priority;
      if (tags) payload.tags = tags.split(/[,\s]+/).filter(Boolean);
      for (const key of ["click", "delay", "email", "attach"]) {
        const v = u.query.get(key);
        if (v) payload[key] = v;
      }
      const icon = u.query.get("avatar_url");
      if (icon) payload.icon = icon;
      await ctx.fetch(`${base}/`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...auth },
        body: JSON.stringify(payload),
        timeoutMs: SEND_TIMEOUT_MS,
        maxBytes: 256 * 1024,
        signal: ctx.signal,
      });
    }
  },
});
