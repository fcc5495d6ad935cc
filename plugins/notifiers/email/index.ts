/**
 * `mailto://` and `mailtos://` (Apprise): `mailto://user:password@domain[:port][/to@example.org…]`.
 * Options: smtp (the server; default the domain), from, to, name (the sender's name), mode (ssl or
 * starttls, for mailtos://), user, pass. The sender defaults to user@domain, the recipient to the
 * sender. mailto:// talks plain SMTP (port 25), mailtos:// STARTTLS (587) or, with mode=ssl, TLS (465).
 * Sent through Larder's SMTP sender (core/email), to an address the fetch policy allows.
 */
import { isIP } from "node:net";
import { definePlugin } from "../../../core/plugins/define.js";
import { LarderError } from "../../../core/errors.js";
import { invalid, parseAppriseUrl, SEND_TIMEOUT_MS } from "../apprise-url.js";
import type { SmtpSecurity } from "../../../core/email/smtp-config.js";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
const ADDRESS_RE = /^[^\s@<>,;"]+@[A-Za-z0-9.-]+$/;

function read(raw: string) {
  const u = parseAppriseUrl(raw);
  const q = u.query;
  if (!u.host) throw invalid(u.scheme, "a domain is required (mailto://user:password@example.org)");
  const user = q.get("user") ?? u.user;
  const password = q.get("pass") ?? u.password;
  const domain = u.host.replace(/^\[|\]$/g, "");
  const from =
    q.get("from") ?? (user.includes("@") ? user : user ? `${user}@${domain}` : `noreply@${domain}`);
  const to = [...u.path, ...(q.get("to") ?? "").split(/[,\s]+/)].filter(Boolean);
  const recipients = to.length ? to : [from];
  for (const a of [from, ...recipients])
    if (!ADDRESS_RE.test(a)) throw invalid(u.scheme, `${JSON.stringify(a)} is not an e-mail address`);
  const mode = (q.get("mode") ?? "").toLowerCase();
  let security: SmtpSecurity = "none";
  if (u.scheme === "mailtos") security = mode === "ssl" ? "tls" : "starttls";
  else if (mode && mode !== "insecure") throw invalid(u.scheme, "mode is for mailtos:// (ssl or starttls)");
  const port = u.port ?? { none: 25, starttls: 587, tls: 465 }[security];
  const smtpHost = (q.get("smtp") ?? domain).trim().toLowerCase();
  if (!smtpHost || /[/\s@]/.test(smtpHost)) throw invalid(u.scheme, "smtp must be a host name");
  if (security === "none" && password && !LOOPBACK.has(smtpHost)) {
    throw invalid(u.scheme, "a password is only sent over an encrypted connection: use mailtos://");
  }
  return {
    smtpHost,
    port,
    security,
    from,
    name: q.get("name") ?? "Larder",
    recipients,
    user: user || undefined,
    password: password || undefined,
  };
}

export default definePlugin({
  kind: "notifier",
  name: "email",
  description: "Sends an e-mail through an SMTP server (mailto://, mailtos://)",
  schemes: ["mailto", "mailtos"],
  check: (url) => {
    const r = read(url);
    return [`smtp://${r.smtpHost.includes(":") ? `[${r.smtpHost}]` : r.smtpHost}:${r.port}`];
  },
  async send(url, n, ctx) {
    const r = read(url);
    const address = await ctx.resolveAllowed(r.smtpHost);
    // Loaded on first use: the SMTP sender pulls in nodemailer.
    const { SmtpMailer } = await import("../../../core/email/smtp-mailer.js");
    const mailer = new SmtpMailer({
      host: address,
      port: r.port,
      security: r.security,
      from: { name: r.name, email: r.from },
      user: r.user,
      password: r.password,
      // The certificate names the server, not the address we connect to (SNI takes names only).
      tls: isIP(r.smtpHost.replace(/^\[|\]$/g, "")) ? {} : { servername: r.smtpHost },
      timeoutMs: SEND_TIMEOUT_MS,
    });
    for (const to of r.recipients) {
      try {
        await mailer.send({ to, subject: n.title || "Larder", text: n.body });
      } catch (e) {
        if (e instanceof LarderError) throw e;
        // An unreachable or refusing server is the service's answer, not a fault of this plugin: it stays enabled.
        throw new LarderError((e as Error).message.replace(address, r.smtpHost), 502);
      }
    }
  },
});
