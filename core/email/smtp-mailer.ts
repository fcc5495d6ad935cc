/**
 * SMTP delivery through nodemailer (STARTTLS or implicit TLS, AUTH, MIME encoding). Larder checks
 * every header value first (message.ts), so an address or subject carrying a line break is refused
 * here, whatever the library would make of it, and never reaches the server.
 */
import type { Transporter } from "nodemailer";
import { loadNodemailer } from "../lazy/modules.js";
import type { Mailer, MailMessage } from "./mailer.js";
import { assertAddress, assertHeaderSafe } from "./message.js";
import type { SmtpOptions } from "./smtp-config.js";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1"]);

export class SmtpMailer implements Mailer {
  private transport: Promise<Transporter> | null = null;

  constructor(private readonly options: SmtpOptions) {}

  /** The transport, made with the first message (nodemailer loads then, not at start). */
  private connect(): Promise<Transporter> {
    return (this.transport ??= loadNodemailer().then(({ createTransport }) => {
      const o = this.options;
      const timeout = o.timeoutMs ?? 15_000;
      return createTransport({
        host: o.host,
        port: o.port,
        secure: o.security === "tls",
        // STARTTLS is mandatory with "starttls" (no silent fall back to plain text) and never tried with "none".
        requireTLS: o.security === "starttls",
        ignoreTLS: o.security === "none",
        auth: o.user ? { user: o.user, pass: o.password ?? "" } : undefined,
        tls: o.tls,
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: timeout,
        disableFileAccess: true,
        disableUrlAccess: true,
      });
    }));
  }

  async send(msg: MailMessage): Promise<void> {
    const o = this.options;
    assertAddress("sender", o.from.email);
    assertAddress("recipient", msg.to);
    assertHeaderSafe("subject", msg.subject);
    if (o.from.name) assertHeaderSafe("sender", o.from.name);
    if (o.user && o.security === "none" && !LOOPBACK.has(o.host)) {
      throw new Error(
        "Refusing to send SMTP credentials over an unencrypted connection (SMTP_AUTH_STRATEGY=NONE)",
      );
    }
    try {
      const transport = await this.connect();
      await transport.sendMail({
        from: o.from.name ? { name: o.from.name, address: o.from.email } : o.from.email,
        to: msg.to,
        subject: msg.subject,
        text: msg.text,
        html: msg.html,
        disableFileAccess: true,
        disableUrlAccess: true,
      });
    } catch (e) {
      // Name the server: the admin reading `{success: false, error}` needs to know which setting to check.
      throw new Error(`SMTP delivery through ${o.host}:${o.port} failed: ${(e as Error).message}`);
    }
  }
}
