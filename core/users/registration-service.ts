/**
 * Joining and getting back in (mealie-api-notes §6): sign-up (gated by ALLOW_SIGNUP, or an invitation
 * token), household invitations and their e-mail, forgotten passwords and resets.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { lazySchema } from "../util/lazy-schema.js";
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "../errors.js";
import type { UserRecord } from "../schemas/records.js";
import type { EmailResult } from "../email/email-service.js";
import { requirePermission } from "../policy/guards.js";
import { InvitationStore, type InvitationRecord } from "./invitations.js";
import { SPEC_MESSAGES } from "./users-service.js";
import { ForgotPasswordBody, RegistrationBody, ResetPasswordBody, emailField } from "./user-input.js";
import { signedIn } from "./accounts-service.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<
  Parts,
  "auth" | "config" | "email" | "events" | "folder" | "groups" | "log" | "seedVocabulary" | "users"
>;

const CreateInvitationBody = lazySchema(() =>
  z.object({
    uses: z.number({ error: SPEC_MESSAGES.required }).int().min(1).max(1000),
    groupId: z.string().max(100).nullish(),
    householdId: z.string().max(100).nullish(),
  }),
);
const EmailInvitationBody = lazySchema(() =>
  z.object({
    email: emailField,
    token: z.string({ error: SPEC_MESSAGES.required }).min(1).max(200),
  }),
);

/** How long a reset link stays valid, in words for the e-mail. */
const RESET_VALID_FOR = "one hour";

export class RegistrationService {
  private pending = new Set<Promise<unknown>>();

  private constructor(
    private readonly larder: Deps,
    readonly invitations: InvitationStore,
    private readonly templatesDir: string,
  ) {}

  /** `templatesDir` holds `seed/<locale>/` for new groups that ask for seed data. */
  static async open(larder: Deps, templatesDir: string): Promise<RegistrationService> {
    const invitations = await InvitationStore.open(larder.folder, { now: () => larder.auth.now().getTime() });
    return new RegistrationService(larder, invitations, templatesDir);
  }

  /** Wait for e-mails sent in the background (tests, and a clean shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private background(task: () => Promise<unknown>): void {
    const p = task().catch((e: unknown) => this.larder.log.error("background e-mail task failed", e));
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  /**
   * POST /users/register → the new user. With a token: join its household with no permission flags.
   * Without: create the named group (and household), with every flag, as its first member.
   */
  async register(raw: unknown): Promise<UserRecord> {
    const body = RegistrationBody.parse(raw ?? {});
    const token = body.groupToken ?? null;
    if ((!this.larder.config.allowSignup && token === null) || token === "")
      throw new ForbiddenError("User Registration is Disabled");
    const users = this.larder.users;
    users.assertAvailable(body);
    const profile = {
      username: body.username,
      email: body.email,
      fullName: body.fullName,
      admin: false,
      advanced: body.advanced,
    };
    if (token !== null) {
      const invite = this.invitations.find(token);
      if (!invite || !this.larder.groups.household(invite.groupId, invite.householdId))
        throw new BadRequestError("Invalid group token");
    }
    // The password is stored before the invitation is used up and the account written (decision 0206).
    const user = await this.larder.auth.withPassword(body.password, async (id) => {
      if (token !== null) {
        const place = await this.invitations.consume(token);
        if (!place) throw new BadRequestError("Invalid group token");
        return users.create(
          { ...profile, canInvite: false, canManage: false, canManageHousehold: false, canOrganize: false },
          place,
          { id },
        );
      }
      const place = await this.newGroupFor(body);
      return users.create(
        { ...profile, canInvite: true, canManage: true, canManageHousehold: true, canOrganize: true },
        place,
        { id },
      );
    });
    this.larder.log.info(`user signed up: ${user.username} (${token === null ? "new group" : "invitation"})`);
    this.larder.events.publish({
      eventType: "user_signup",
      groupId: user.groupId,
      householdId: user.householdId,
      integrationId: "registration",
      documentData: { documentType: "user", operation: "create", username: user.username, email: user.email },
    });
    return user;
  }

  private async newGroupFor(body: RegistrationBody): Promise<{ groupId: string; householdId: string }> {
    const groups = this.larder.groups;
    const name = body.group ?? "";
    if (groups.byName(name))
      throw new ConflictError("group name is taken", {
        message: "This group name is already taken",
        error: true,
        exception: null,
      });
    const priv = body.private;
    const g = await groups.createGroup(name, "Family", undefined, {
      group: { privateGroup: priv },
      household: { privateHousehold: priv, recipePublic: !priv },
    });
    const wanted = body.household?.trim();
    const household =
      (wanted ? groups.householdIn(g, wanted) : groups.defaultHousehold(g)) ??
      (await groups.createHousehold(g, wanted ?? "Family", undefined, {
        privateHousehold: priv,
        recipePublic: !priv,
        recipeShowNutrition: body.advanced,
        recipeShowAssets: body.advanced,
        recipeDisableComments: body.advanced,
        recipeLandscapeView: false,
        firstDayOfWeek: 0,
      }));
    if (body.seedData) {
      const locale = existsSync(join(this.seedRoot(), body.locale)) ? body.locale : "en-US";
      await this.larder.seedVocabulary(g.slug, locale);
    }
    return { groupId: g.doc.data.id, householdId: household.doc.data.id };
  }

  private seedRoot(): string {
    return join(this.templatesDir, "seed");
  }

  // ---- invitations (household-scoped; canInvite) ----

  /**
   * What the sign-up page shows a visitor holding an invitation link: the group and household it
   * joins. Only the token's holder learns them; an unknown or used-up token is null.
   */
  describeInvitation(token: string): { group: string; household: string } | null {
    const invite = token ? this.invitations.find(token) : null;
    const found = invite ? this.larder.groups.householdById(invite.householdId) : null;
    if (!invite || !found || found.group.doc.data.id !== invite.groupId) return null;
    return { group: found.group.doc.data.name, household: found.household.doc.data.name };
  }

  /** GET /households/invitations: the live tokens of the actor's household. */
  listInvitations(actor: Actor): InvitationRecord[] {
    const me = signedIn(actor);
    requirePermission(me, "canInvite");
    return this.invitations.list(me.householdId);
  }

  /**
   * POST /households/invitations. Anyone with canInvite invites to their own household; only an
   * admin may name another one (which must exist, and belong to the named group).
   */
  async createInvitation(actor: Actor, raw: unknown): Promise<InvitationRecord> {
    const me = signedIn(actor);
    requirePermission(me, "canInvite");
    const body = CreateInvitationBody.parse(raw ?? {});
    const householdId = body.householdId ?? me.householdId;
    const groupId =
      body.groupId ??
      (body.householdId ? this.larder.groups.householdById(body.householdId)?.group.doc.data.id : null) ??
      me.groupId;
    if ((householdId !== me.householdId || groupId !== me.groupId) && !me.admin)
      throw new ForbiddenError("Forbidden", "Forbidden");
    if (!this.larder.groups.household(groupId, householdId)) throw new NotFoundError("household not found");
    return this.invitations.create({ groupId, householdId }, body.uses, me.id);
  }

  /** POST /households/invitations/email: mail a token of the actor's household to someone. */
  async emailInvitation(actor: Actor, raw: unknown): Promise<EmailResult> {
    const me = signedIn(actor);
    requirePermission(me, "canInvite");
    const body = EmailInvitationBody.parse(raw ?? {});
    const invite = this.invitations.find(body.token);
    // Another household's token is treated like an unknown one.
    if (!invite || (invite.householdId !== me.householdId && !me.admin))
      return { success: false, error: "Invalid token" };
    const found = this.larder.groups.householdById(invite.householdId);
    if (!found) return { success: false, error: "Invalid token" };
    return this.larder.email.trySend(body.email, "invitation", {
      inviter: me.fullName || me.username,
      household: found.household.doc.data.name,
      group: found.group.doc.data.name,
      link: this.larder.email.invitationLink(invite.token),
    });
  }

  // ---- passwords ----

  /**
   * POST /users/forgot-password: always answers the same, at once; the lookup and the e-mail happen
   * afterwards, so neither the answer nor its timing tells whether the address has an account.
   */
  forgotPassword(raw: unknown): void {
    const { email } = ForgotPasswordBody.parse(raw ?? {});
    this.background(async () => {
      const user = this.larder.users.byEmail(email);
      if (!user || user.authMethod !== "Mealie") return;
      if (!this.larder.email.ready) {
        this.larder.log.warn(`password reset asked for ${user.username}, but e-mail is not configured`);
        return;
      }
      const token = await this.larder.auth.createResetToken(user.id);
      await this.larder.email.trySend(user.email, "password-reset", {
        fullName: user.fullName || user.username,
        username: user.username,
        link: this.larder.email.passwordResetLink(token),
        validFor: RESET_VALID_FOR,
      });
    });
  }

  /** POST /users/reset-password: 400 "Invalid token" for an unknown, used or expired token. */
  async resetPassword(raw: unknown): Promise<void> {
    const body = ResetPasswordBody.parse(raw ?? {});
    await this.larder.auth.resetPassword(body.token, body.password);
  }
}
