/**
 * `slack://` (Apprise), incoming-webhook form: `slack://[botname@]TokenA/TokenB/TokenC[/#channel…]`.
 * POSTs {text, username, channel} to the webhook (LARDER_NOTIFY_API_SLACK overrides
 * https://hooks.slack.com/services), once per channel or once without one. Bot tokens (`xoxb-…`) are
 * not supported: they need Slack's Web API and a different grant.
 */
import { definePlugin } from "../../../core/plugins/define.js";
import type { PluginContext } from "../../../core/plugins/kinds.js";
import { apiBase, invalid, parseAppriseUrl, SEND_TIMEOUT_MS } from "../apprise-url.js";

function read(raw: string, ctx: Pick<PluginContext, "config">) {
  const u = parseAppriseUrl(raw);
  if (/^xox[abp]-/i.test(u.host))
    throw invalid(
      u.scheme,
      "Slack bot tokens are not supported; use an incoming webhook (slack://TokenA/TokenB/TokenC)",
    );
  const [b, c, ...rest] = u.path;
  const a = u.host.toUpperCase();
  if (
    !/^[A-Z0-9]{8,16}$/.test(a) ||
    !b ||
    !/^[A-Za-z0-9]{8,16}$/.test(b) ||
    !c ||
    !/^[A-Za-z0-9]{16,32}$/.test(c)
  ) {
    throw invalid(u.scheme, "expected slack://TokenA/TokenB/TokenC from the incoming webhook's address");
  }
  const channels = [...rest, ...(u.query.get("to") ?? "").split(/[,\s]+/)].filter(Boolean);
  const endpoint = `${apiBase(ctx, "SLACK", "https://hooks.slack.com/services")}/${a}/${b}/${c}`;
  return { u, endpoint, channels };
}

export default definePlugin({
  kind: "notifier",
  name: "slack",
  description: "Posts through a Slack incoming webhook (slack://)",
  schemes: ["slack"],
  check: (url, ctx) => [read(url, ctx).endpoint],
  async send(url, n, ctx) {
    const { u, endpoint, channels } = read(url, ctx);
    const text = n.title ? `*${n.title}*\n${n.body}` : n.body;
    for (const channel of channels.length ? channels : [null]) {
      const payload: Record<string, unknown> = { text, mrkdwn: true };
      if (u.user) payload.username = u.user;
      if (channel) payload.channel = /^[#@]/.test(channel) ? channel : `#${channel}`;
      await ctx.fetch(endpoint, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(payload),
        timeoutMs: SEND_TIMEOUT_MS,
        maxBytes: 256 * 1024,
        signal: ctx.signal,
      });
    }
  },
});
