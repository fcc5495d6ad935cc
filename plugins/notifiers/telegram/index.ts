/**
 * `tgram://` (Apprise): `tgram://bot_token/chat_id[/chat_id…]`. The bot token (`123456789:AA…`) holds a
 * colon where a port would be, so this URL is read by hand, not as a WHATWG URL. Options: silent,
 * preview, format (html, markdown or text; default html), topic/thread (a forum topic id).
 * Calls `sendMessage` of the Bot API (LARDER_NOTIFY_API_TGRAM overrides https://api.telegram.org, for a
 * self-hosted Bot API server) once per chat.
 */
import { definePlugin } from "../../../core/plugins/define.js";
import type { PluginContext } from "../../../core/plugins/kinds.js";
import { apiBase, flag, invalid, SEND_TIMEOUT_MS } from "../apprise-url.js";

const TOKEN_RE = /^(?:bot)?(\d{3,12}:[A-Za-z0-9_-]{20,64})$/i;
const CHAT_RE = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,64})$/;
/** Telegram refuses longer messages. */
const MAX_TEXT = 4096;

function read(raw: string, ctx: Pick<PluginContext, "config">) {
  const m = /^tgram:\/\/([^?#]*)(?:\?([^#]*))?/i.exec(raw.trim());
  if (!m) throw invalid("tgram", "expected tgram://bot_token/chat_id");
  const query = new URLSearchParams(m[2] ?? "");
  const [tokenPart, ...chatParts] = m[1]
    .split("/")
    .filter(Boolean)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        throw invalid("tgram", "it holds a broken %-escape");
      }
    });
  const token = TOKEN_RE.exec(tokenPart ?? "")?.[1];
  if (!token) throw invalid("tgram", "the bot token (123456789:ABC…) is missing or malformed");
  const chats = [...chatParts, ...(query.get("to") ?? "").split(/[,\s]+/)].filter(Boolean);
  if (chats.length === 0)
    throw invalid("tgram", "at least one chat id is required (tgram://bot_token/chat_id)");
  const bad = chats.find((c) => !CHAT_RE.test(c));
  if (bad) throw invalid("tgram", `${JSON.stringify(bad)} is not a chat id or @channel`);
  const endpoint = `${apiBase(ctx, "TGRAM", "https://api.telegram.org")}/bot${token}/sendMessage`;
  return { query, chats, endpoint };
}

const escapeHtml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export default definePlugin({
  kind: "notifier",
  name: "telegram",
  description: "Sends a message from a Telegram bot (tgram://)",
  schemes: ["tgram"],
  check: (url, ctx) => [read(url, ctx).endpoint],
  async send(url, n, ctx) {
    const { query, chats, endpoint } = read(url, ctx);
    const format = (query.get("format") ?? "html").toLowerCase();
    let text: string;
    let parseMode: string | undefined;
    if (format === "markdown") {
      text = n.title ? `*${n.title}*\r\n${n.body}` : n.body;
      parseMode = "MarkdownV2";
    } else if (format === "text") {
      text = n.title ? `${n.title}\r\n${n.body}` : n.body;
    } else {
      text = n.title ? `<b>${escapeHtml(n.title)}</b>\r\n${escapeHtml(n.body)}` : escapeHtml(n.body);
      parseMode = "HTML";
    }
    const thread = query.get("topic") ?? query.get("thread");
    for (const chat of chats) {
      const payload: Record<string, unknown> = {
        chat_id: chat,
        text: text.slice(0, MAX_TEXT),
        disable_notification: flag(query, "silent"),
        disable_web_page_preview: !flag(query, "preview"),
      };
      if (parseMode) payload.parse_mode = parseMode;
      if (thread && /^\d+$/.test(thread)) payload.message_thread_id = Number(thread);
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
