/**
 * Building an RFC 5322 message safely. Every header value a user can influence (recipient, subject,
 * display names) is refused when it holds CR, LF or NUL, so nobody can smuggle in a `Bcc:` line or a
 * second message; non-ASCII text is carried as RFC 2047 encoded words and bodies as base64, so no
 * body line can ever be read as SMTP syntax either.
 */
import { randomBytes } from "node:crypto";
import { BadRequestError } from "../errors.js";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface MailAddress {
  name?: string;
  email: string;
}

/** A header value or address that would break out of its header: refused, never cleaned up. */
export class EmailHeaderError extends BadRequestError {
  constructor(field: string) {
    super(`Invalid e-mail ${field}: line breaks and control characters are not allowed`);
  }
}

// An envelope address as SMTP carries it without extensions: printable ASCII, no spaces, no angle
// brackets, quotes, commas or semicolons (each could open another address or header), one "@".
const ADDRESS_RE = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/;
const UNSAFE_RE = /[\r\n\u0000]/;

/** Throws EmailHeaderError when `value` holds CR, LF or NUL. */
export function assertHeaderSafe(field: string, value: string): void {
  if (UNSAFE_RE.test(value)) throw new EmailHeaderError(field);
}

/** Throws unless `email` is one plain ASCII address usable on the SMTP envelope and in a header. */
export function assertAddress(field: string, email: string): void {
  assertHeaderSafe(field, email);
  if (email.length > 254 || !ADDRESS_RE.test(email)) throw new BadRequestError(`Invalid e-mail ${field}: ${JSON.stringify(email.slice(0, 80))}`);
}

/**
 * One header value as RFC 2047 encoded words when it is not plain printable ASCII, split so that no
 * encoded word passes 75 characters (the limit of the RFC) and a UTF-8 sequence is never cut.
 */
export function encodeHeaderText(value: string): string {
  if (/^[\x20-\x7e]*$/.test(value)) return value;
  const words: string[] = [];
  let chunk = "";
  for (const ch of value) {
    // 45 bytes of UTF-8 become 60 base64 characters: with "=?UTF-8?B?" and "?=", 72 in all.
    if (Buffer.byteLength(chunk + ch, "utf8") > 45) {
      words.push(chunk);
      chunk = "";
    }
    chunk += ch;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w, "utf8").toString("base64")}?=`).join("\r\n ");
}

/** `"Display Name" <a@b.c>`, or the bare address when there is no name. */
export function formatAddress(field: string, address: MailAddress): string {
  assertAddress(field, address.email);
  const name = address.name?.trim();
  if (!name) return address.email;
  assertHeaderSafe(field, name);
  const encoded = encodeHeaderText(name);
  // A plain name is quoted (it may hold commas or dots); an encoded one must not be.
  const shown = encoded === name ? `"${name.replace(/["\\]/g, (c) => `\\${c}`)}"` : encoded;
  return `${shown} <${address.email}>`;
}

function base64Lines(text: string): string {
  return (Buffer.from(text, "utf8").toString("base64").match(/.{1,76}/g) ?? []).join("\r\n");
}

/** The whole message (headers and body), lines ending in CRLF, ready for SMTP DATA. */
export function buildMessage(from: MailAddress, msg: MailMessage, now = new Date()): string {
  assertAddress("recipient", msg.to);
  assertHeaderSafe("subject", msg.subject);
  const domain = from.email.split("@")[1] ?? "localhost";
  const headers = [
    `From: ${formatAddress("sender", from)}`,
    `To: ${msg.to}`,
    `Subject: ${encodeHeaderText(msg.subject)}`,
    `Date: ${now.toUTCString().replace("GMT", "+0000")}`,
    `Message-ID: <${randomBytes(12).toString("hex")}@${domain}>`,
    "MIME-Version: 1.0",
  ];
  const textPart = ["Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: base64", "", base64Lines(msg.text)];
  if (msg.html === undefined) return [...headers, ...textPart, ""].join("\r\n");
  const boundary = `larder-${randomBytes(12).toString("hex")}`;
  const htmlPart = ["Content-Type: text/html; charset=utf-8", "Content-Transfer-Encoding: base64", "", base64Lines(msg.html)];
  return [
    ...headers,
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    ...textPart,
    `--${boundary}`,
    ...htmlPart,
    `--${boundary}--`,
    "",
  ].join("\r\n");
}
