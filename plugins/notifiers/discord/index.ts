/**
 * `discord://` (Apprise): `discord://[botname@]webhook_id/webhook_token`. Options: tts, avatar_url,
 * thread (a thread id). POSTs {content, username, avatar_url, tts} to Discord's webhook endpoint
 * (LARDER_NOTIFY_API_DISCORD overrides https://discord.com/api).
 */
import { definePlugin } from "../../../core/plugins/define.js";
import type { PluginContext } from "../../../core/plugins/kinds.js";
import { apiBase, flag, invalid, parseAppriseUrl, SEND_TIMEOUT_MS } from "../apprise-url.js";

/** Discord refuses longer messages. */
const MAX_CONTENT = 2000;

function read(raw: string, ctx: Pick<PluginContext, "config">) {
  const u = parseAppriseUrl(raw);
  const id = u.host;
  const token = u.path[0];
  if (!/^\d{5,32}$/.test(id))
    throw invalid(u.scheme, "the webhook id (discord://<id>/<token>) must be a number");
  if (!token || !/^[A-Za-z0-9_-]{16,128}$/.test(token))
    throw invalid(u.scheme, "the webhook token (discord://<id>/<token>) is missing or malformed");
  const endpoint = new URL(`${apiBase(ctx, "DISCORD", "https://discord.com/api")}/webhooks/${id}/${token}`);
  const thread = u.query.get("thread");
  if (thread) endpoint.searchParams.set("thread_id", thread);
  return { u, endpoint: endpoint.href };
}

export default definePlugin({
  kind: "notifier",
  name: "discord",
  description: "Posts to a Discord channel webhook (discord://)",
  schemes: ["discord"],
  check: (url, ctx) => [read(url, ctx).endpoint],
  async send(url, n, ctx) {
    const { u, endpoint } = read(url, ctx);
    const content = n.title ? `**${n.title}**\r\n${n.body}` : n.body;
    const payload: Record<string, unknown> = {
      content: content.slice(0, MAX_CONTENT),
      tts: flag(u.query, "tts"),
    };
    if (u.user) payload.username = u.user;
    const avatar = u.query.get("avatar_url");
    if (avatar) payload.avatar_url = avatar;
    await ctx.fetch(endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(payload),
      timeoutMs: SEND_TIMEOUT_MS,
      maxBytes: 256 * 1024,
      signal: ctx.signal,
    });
  },
});
