/**
 * SMTP settings from Mealie's variables (ARCHITECTURE §7): SMTP_HOST, SMTP_PORT, SMTP_FROM_NAME,
 * SMTP_FROM_EMAIL, SMTP_USER, SMTP_PASSWORD, SMTP_AUTH_STRATEGY (TLS = STARTTLS, SSL = implicit TLS,
 * NONE = plain). Larder adds SMTP_TLS_CACERTFILE (a private CA) and SMTP_TLS_INSECURE (skip the
 * certificate check, for a self-signed test relay only).
 */
import { readFileSync } from "node:fs";
import type { ConnectionOptions } from "node:tls";
import type { MailAddress } from "./message.js";

/** STARTTLS on a plain connection, TLS from the first byte, or no encryption. */
export type SmtpSecurity = "starttls" | "tls" | "none";

export interface SmtpOptions {
  host: string;
  port: number;
  security: SmtpSecurity;
  from: MailAddress;
  user?: string;
  password?: string;
  /** Extra TLS settings: a private CA, or (never in production) no certificate check. */
  tls?: Pick<ConnectionOptions, "ca" | "rejectUnauthorized" | "servername">;
  /** Per-step timeout in milliseconds. */
  timeoutMs?: number;
}

const STRATEGIES: Record<string, SmtpSecurity> = {
  TLS: "starttls",
  STARTTLS: "starttls",
  SSL: "tls",
  NONE: "none",
};
const DEFAULT_PORT: Record<SmtpSecurity, number> = { starttls: 587, tls: 465, none: 25 };

/** The SMTP options, or null when e-mail is not configured (no host or no sender address). */
export function smtpOptionsFrom(smtp: Record<string, string>): SmtpOptions | null {
  const host = smtp.HOST?.trim();
  const fromEmail = smtp.FROM_EMAIL?.trim();
  if (!host || !fromEmail) return null;
  const strategy = (smtp.AUTH_STRATEGY ?? "TLS").trim().toUpperCase();
  const security = STRATEGIES[strategy];
  if (!security)
    throw new Error(`SMTP_AUTH_STRATEGY must be TLS, SSL or NONE, not ${JSON.stringify(smtp.AUTH_STRATEGY)}`);
  const port = smtp.PORT?.trim() ? Number.parseInt(smtp.PORT, 10) : DEFAULT_PORT[security];
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`SMTP_PORT is not a port: ${JSON.stringify(smtp.PORT)}`);
  const tls: SmtpOptions["tls"] = {};
  if (smtp.TLS_CACERTFILE?.trim()) tls.ca = readFileSync(smtp.TLS_CACERTFILE.trim(), "utf8");
  if (/^(1|true|yes|on)$/i.test(smtp.TLS_INSECURE ?? "")) tls.rejectUnauthorized = false;
  return {
    host,
    port,
    security,
    from: { name: smtp.FROM_NAME?.trim() || "Larder", email: fromEmail },
    user: smtp.USER?.trim() || undefined,
    password: smtp.PASSWORD ?? undefined,
    tls,
  };
}
