/**
 * The first-time setup (decision 0100): a fresh server's first visitor turns Mealie's first-start
 * account (admin / MyPassword, core/users/first-admin.ts) into a real one, names the group and the
 * household, and may seed the group's foods, units and labels. It is open while the first admin still
 * has the default password, which is exactly when anyone could sign in as them with that public
 * password; once done it never opens again. A demo keeps the default login, so it has no setup.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { Parts } from "../parts.js";
import { ConflictError, ForbiddenError } from "../errors.js";
import type { UserRecord } from "../schemas/records.js";
import { FIRST_ADMIN_EMAIL } from "./first-admin.js";
import { SPEC_MESSAGES } from "./users-service.js";
import { emailField, fullNameField, passwordField, usernameField, SUPPORTED_LOCALES } from "./user-input.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "auth" | "config" | "groups" | "log" | "seedVocabulary" | "users">;

const nameField = z
  .string({ error: SPEC_MESSAGES.required })
  .trim()
  .min(1, SPEC_MESSAGES.required)
  .max(200, SPEC_MESSAGES.maxLength(200));

export const FirstSetupBody = z
  .object({
    fullName: fullNameField,
    username: usernameField,
    email: emailField,
    password: passwordField,
    passwordConfirm: z.string({ error: SPEC_MESSAGES.required }),
    group: nameField,
    household: nameField,
    locale: z.enum(SUPPORTED_LOCALES, { error: "Unknown locale" }).default("en-US"),
    seedData: z.boolean().default(true),
  })
  .superRefine((b, ctx) => {
    if (b.password !== b.passwordConfirm)
      ctx.addIssue({ code: "custom", path: ["passwordConfirm"], message: SPEC_MESSAGES.passwordsMatch });
  });
export type FirstSetupBody = z.output<typeof FirstSetupBody>;

export interface SetupState {
  /** The setup is open: the first admin still has the default password and this is not a demo. */
  needed: boolean;
  /** What the wizard starts from (null when not needed). */
  current: {
    fullName: string;
    username: string;
    email: string;
    group: string;
    household: string;
    foods: number;
    units: number;
    labels: number;
  } | null;
}

/**
 * Sites whose setup was skipped (see `skip`), by their configuration: one per open Larder, kept across
 * a reload, which builds the services afresh.
 */
const skipped = new WeakSet<object>();

export class FirstSetup {
  /** `templatesDir` holds `seed/<locale>/`. */
  constructor(
    private readonly larder: Deps,
    private readonly templatesDir: string,
  ) {}

  private firstAdmin(): UserRecord | null {
    return this.larder.users.all().find((u) => u.email.toLowerCase() === FIRST_ADMIN_EMAIL) ?? null;
  }

  /**
   * Never offer the setup on this open site: for harnesses and embedders that provision the first
   * admin themselves and sign in with the default password (the browser tests do).
   */
  skip(): void {
    skipped.add(this.larder.config);
  }

  async needed(): Promise<boolean> {
    if (this.larder.config.demo || skipped.has(this.larder.config)) return false;
    return this.larder.auth.isFirstLogin();
  }

  async state(): Promise<SetupState> {
    const admin = this.firstAdmin();
    if (!admin || !(await this.needed())) return { needed: false, current: null };
    const found = this.larder.groups.householdById(admin.householdId);
    const g = found?.group ?? this.larder.groups.byId(admin.groupId);
    return {
      needed: true,
      current: {
        fullName: admin.fullName,
        username: admin.username,
        email: admin.email,
        group: g?.doc.data.name ?? "",
        household: found?.household.doc.data.name ?? "",
        foods: g?.foods.data.foods.length ?? 0,
        units: g?.units.data.units.length ?? 0,
        labels: g?.labels.data.labels.length ?? 0,
      },
    };
  }

  /**
   * Finish the setup; returns the admin as they now are (the caller signs them in with the new
   * password). 403 once the setup is done; 409 for a username or e-mail another account has.
   */
  async complete(raw: unknown): Promise<{ user: UserRecord; seeded: boolean }> {
    const admin = this.firstAdmin();
    if (!admin || !(await this.needed())) throw new ForbiddenError("The first-time setup is already done");
    const body = FirstSetupBody.parse(raw ?? {});
    const users = this.larder.users;
    if (users.usernameTaken(body.username, admin.id))
      throw new ConflictError(SPEC_MESSAGES.usernameTaken, {
        message: "This username is already taken",
        error: true,
        exception: null,
      });
    if (users.emailTaken(body.email, admin.id))
      throw new ConflictError(SPEC_MESSAGES.emailTaken, {
        message: "This email is already in use",
        error: true,
        exception: null,
      });
    const groups = this.larder.groups;
    const g = groups.byId(admin.groupId);
    const h = groups.household(admin.groupId, admin.householdId);
    if (g) {
      const clash = groups.byName(body.group);
      if (clash && clash !== g)
        throw new ConflictError("group name is taken", {
          message: "This group name is already taken",
          error: true,
          exception: null,
        });
      if (g.doc.data.name !== body.group) await groups.updateGroup(g, { name: body.group });
    }
    if (h && h.doc.data.name !== body.household) await groups.updateHousehold(h, { name: body.household });
    // Seeding only fills an empty vocabulary: a group that has foods (the first start seeds English
    // ones unless `larder init --no-seed`) keeps them rather than getting a second language's beside.
    let seeded = false;
    if (body.seedData && g && g.foods.data.foods.length === 0) {
      const locale = existsSync(join(this.templatesDir, "seed", body.locale)) ? body.locale : "en-US";
      await this.larder.seedVocabulary(g.slug, locale);
      seeded = true;
    }
    const user = await users.update(admin.id, {
      fullName: body.fullName,
      username: body.username,
      email: body.email,
    });
    // Last: a new password closes the setup, so a failure above leaves it open to try again.
    await this.larder.auth.changePassword(admin.id, body.password);
    this.larder.log.info(`first-time setup done: admin is now '${user.username}'`);
    return { user, seeded };
  }
}
