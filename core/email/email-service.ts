/**
 * Sending Larder's e-mails (password reset links, household invitations, the admin's test message)
 * through SMTP (nodemailer) with texts from `templates/email/`. Other features that notify by e-mail reuse
 * `sendTemplate`.
 */
import type { Config } from "../config.js";
import type { Logger } from "../log/logger.js";
import { BadRequestError } from "../errors.js";
import type { Mailer } from "./mailer.js";
import { assertAddress } from "./message.js";
import { SmtpMailer } from "./smtp-mailer.js";
import { smtpOptionsFrom } from "./smtp-config.js";
import { renderEmail } from "./templates.js";

export interface EmailResult {
  success: boolean;
  error: string | null;
}

export class EmailService {
  private mailer: Mailer | null = null;

  constructor(
    private readonly config: Config,
    private readonly templatesDir: string,
    private readonly log: Logger,
  ) {
    try {
      const options = smtpOptionsFrom(config.smtp);
      if (options) this.mailer = new SmtpMailer(options);
    } catch (e) {
      // A wrong setting leaves e-mail off (GET /admin/email says so) rather than stopping the server.
      log.error(`e-mail is off: ${(e as Error).message}`);
    }
  }

  /** Whether e-mail can be sent (GET /admin/email `ready`, /admin/about/check `emailReady`). */
  get ready(): boolean {
    return this.mailer !== null;
  }

  /** Replace the delivery (tests, or a plugin); null turns e-mail off. */
  useMailer(mailer: Mailer | null): void {
    this.mailer = mailer;
  }

  /** The site's public address, for links in messages. */
  get baseUrl(): string {
    return this.config.baseUrl.replace(/\/+$/, "");
  }

  /** Render `templates/email/<name>` and send it; rejects when e-mail is off or delivery fails. */
  async sendTemplate(to: string, name: string, vars: Readonly<Record<string, string>>): Promise<void> {
    assertAddress("recipient", to);
    if (!this.mailer) throw new BadRequestError("E-mail is not configured (SMTP_HOST and SMTP_FROM_EMAIL)");
    const rendered = await renderEmail(this.templatesDir, name, { baseUrl: this.baseUrl, ...vars });
    await this.mailer.send({ to, ...rendered });
  }

  /** Like sendTemplate, but answers Mealie's `{success, error}` instead of throwing. */
  async trySend(to: string, name: string, vars: Readonly<Record<string, string>>): Promise<EmailResult> {
    try {
      await this.sendTemplate(to, name, vars);
      return { success: true, error: null };
    } catch (e) {
      const error = (e as Error).message;
      this.log.warn(`e-mail "${name}" was not sent: ${error}`);
      return { success: false, error };
    }
  }

  /** POST /admin/email. */
  sendTest(to: string): Promise<EmailResult> {
    return this.trySend(to, "test", {});
  }

  /** `{BASE_URL}/reset-password/?token=…`, the link Mealie's frontend expects. */
  passwordResetLink(token: string): string {
    return `${this.baseUrl}/reset-password/?token=${encodeURIComponent(token)}`;
  }

  /** `{BASE_URL}/register?token=…`. */
  invitationLink(token: string): string {
    return `${this.baseUrl}/register?token=${encodeURIComponent(token)}`;
  }
}
