/**
 * What a message is, and the checks every header value passes before it is sent. A recipient,
 * subject or display name holding CR, LF or NUL is refused, never cleaned up, so nobody can smuggle
 * in a `Bcc:` line or a second message; addresses must be single plain ASCII addresses.
 */
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

/** A header value or address that would break out of its header: refused. */
export class EmailHeaderError extends BadRequestError {
  constructor(field: string) {
    super(`Invalid e-mail ${field}: line breaks and control characters are not allowed`);
  }
}

// One address as SMTP carries it without extensions: printable ASCII, no spaces, no angle brackets,
// quotes, commas or semicolons (each could open another address or header), exactly one "@".
const ADDRESS_RE = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/;
const UNSAFE_RE = /[\r\n\u0000]/;

/** Throws EmailHeaderError when `value` holds CR, LF or NUL. */
export function assertHeaderSafe(field: string, value: string): void {
  if (UNSAFE_RE.test(value)) throw new EmailHeaderError(field);
}

/** Throws unless `email` is one plain ASCII address usable on the SMTP envelope and in a header. */
export function assertAddress(field: string, email: string): void {
  assertHeaderSafe(field, email);
  if (email.length > 254 || !ADDRESS_RE.test(email))
    throw new BadRequestError(`Invalid e-mail ${field}: ${JSON.stringify(email.slice(0, 80))}`);
}
