/**
 * The seam between Larder and whatever delivers e-mail. Core sends through `Mailer`; the built-in
 * implementation is SMTP through nodemailer (smtp-mailer.ts); tests may substitute a recorder.
 */
import type { MailMessage } from "./message.js";

export type { MailAddress, MailMessage } from "./message.js";

export interface Mailer {
  /** Deliver one message; rejects when the server refuses it or cannot be reached. */
  send(message: MailMessage): Promise<void>;
}
