/** Users' public profiles (users.json). Password hashes live in `.larder/credentials.json`, never here. */
import { z } from "zod";
import type { JsonDoc } from "../storage/json-doc.js";
import { ConflictError, NotFoundError } from "../errors.js";
import { UserRecord, type UsersDoc } from "../schemas/records.js";
import { newId } from "../util/ids.js";

export const SPEC_MESSAGES = {
  required: "This Field is Required",
  email: "Email Must Be Valid",
  noWhitespace: "No Whitespace Allowed",
  minLength: (n: number) => `Must Be At Least ${n} Characters`,
  maxLength: (n: number) => `Must Be At Most ${n} Characters`,
  passwordsMatch: "passwords must match",
  usernameTaken: "username is taken",
  emailTaken: "email is taken",
} as const;

// Mirrors the UI's email rule (spec §5: a pattern check); NUL, CR and LF are refused so that a
// stored address can never inject e-mail headers.
export const EMAIL_RE = /^[^\s@\u0000]+@[^\s@\u0000]+\.[^\s@\u0000]+$/;

export const NewUserInput = z.object({
  username: z
    .string({ error: SPEC_MESSAGES.required })
    .trim()
    .min(1, SPEC_MESSAGES.required)
    .max(100, SPEC_MESSAGES.maxLength(100))
    .regex(/^\S+$/, SPEC_MESSAGES.noWhitespace),
  fullName: z
    .string({ error: SPEC_MESSAGES.required })
    .trim()
    .min(1, SPEC_MESSAGES.required)
    .max(200, SPEC_MESSAGES.maxLength(200)),
  email: z
    .string({ error: SPEC_MESSAGES.required })
    .trim()
    .min(1, SPEC_MESSAGES.required)
    .regex(EMAIL_RE, SPEC_MESSAGES.email),
  password: z
    .string({ error: SPEC_MESSAGES.required })
    .min(8, SPEC_MESSAGES.minLength(8))
    .max(256, SPEC_MESSAGES.maxLength(256)),
  admin: z.boolean().default(false),
  advanced: z.boolean().default(false),
  canInvite: z.boolean().default(false),
  canManage: z.boolean().default(false),
  canManageHousehold: z.boolean().default(false),
  canOrganize: z.boolean().default(false),
});
export type NewUserInput = z.input<typeof NewUserInput>;

export class UsersService {
  private ids = new Map<string, UserRecord>();
  private idsOf: UserRecord[] | null = null;

  constructor(private doc: JsonDoc<UsersDoc>) {}

  all(): UserRecord[] {
    return this.doc.data.users;
  }

  byId(id: string): UserRecord | null {
    const users = this.all();
    // Every recipe summary and list entry looks its owner up (twice): by a map, made again whenever
    // the document's data is replaced (JsonDoc replaces it on every change), not by a walk.
    if (this.idsOf !== users) {
      this.ids = new Map(users.map((u) => [u.id, u]));
      this.idsOf = users;
    }
    return this.ids.get(id) ?? null;
  }

  get(id: string): UserRecord {
    const u = this.byId(id);
    if (!u) throw new NotFoundError("User Not Found");
    return u;
  }

  /** Username first, then e-mail, both case-insensitive (Mealie's login lookup). */
  byLogin(login: string): UserRecord | null {
    const l = login.trim().toLowerCase();
    return (
      this.all().find((u) => u.username.toLowerCase() === l) ??
      this.all().find((u) => u.email.toLowerCase() === l) ??
      null
    );
  }

  usernameTaken(name: string, exceptId?: string): boolean {
    const l = name.trim().toLowerCase();
    return this.all().some((u) => u.username.toLowerCase() === l && u.id !== exceptId);
  }

  emailTaken(email: string, exceptId?: string): boolean {
    const l = email.trim().toLowerCase();
    return this.all().some((u) => u.email.toLowerCase() === l && u.id !== exceptId);
  }

  /** E-mail lookup, case-insensitive (password reset, admin reset tokens). */
  byEmail(email: string): UserRecord | null {
    const l = email.trim().toLowerCase();
    return l ? (this.all().find((u) => u.email.toLowerCase() === l) ?? null) : null;
  }

  inGroup(groupId: string): UserRecord[] {
    return this.all().filter((u) => u.groupId === groupId);
  }

  inHousehold(householdId: string): UserRecord[] {
    return this.all().filter((u) => u.householdId === householdId);
  }

  /**
   * A member of one group by id or username (case-insensitive), or null. Scoped lookups are how a
   * user of another group stays invisible: their id answers exactly like an unknown one.
   */
  inGroupByIdOrName(groupId: string, idOrName: string): UserRecord | null {
    const l = idOrName.trim().toLowerCase();
    const members = this.inGroup(groupId);
    return (
      members.find((u) => u.id === idOrName) ?? members.find((u) => u.username.toLowerCase() === l) ?? null
    );
  }

  /** The group's first admin (by creation), who owns hand-made recipes without an owner. */
  firstAdminOf(groupId: string): UserRecord | null {
    const members = this.inGroup(groupId);
    return members.find((u) => u.admin) ?? members[0] ?? null;
  }

  /** Refuse a username or e-mail address another user has (409, Mealie's wording). */
  assertAvailable(input: { username: string; email: string }): void {
    if (this.usernameTaken(input.username))
      throw new ConflictError(SPEC_MESSAGES.usernameTaken, {
        message: "This username is already taken",
        error: true,
        exception: null,
      });
    if (this.emailTaken(input.email))
      throw new ConflictError(SPEC_MESSAGES.emailTaken, {
        message: "This email is already in use",
        error: true,
        exception: null,
      });
  }

  async create(
    input: Omit<z.output<typeof NewUserInput>, "password">,
    where: { groupId: string; householdId: string },
    extra: Partial<UserRecord> = {},
  ): Promise<UserRecord> {
    this.assertAvailable(input);
    const now = new Date().toISOString();
    const rec = UserRecord.parse({
      ...input,
      ...where,
      id: newId(),
      createdAt: now,
      updatedAt: now,
      cacheKey: newId().slice(0, 8),
      ...extra,
    });
    await this.doc.update((d) => {
      d.users.push(rec);
    });
    return rec;
  }

  async update(id: string, patch: Partial<UserRecord>): Promise<UserRecord> {
    const current = this.get(id);
    const next = UserRecord.parse({ ...current, ...patch, id, updatedAt: new Date().toISOString() });
    await this.doc.update((d) => {
      const i = d.users.findIndex((u) => u.id === id);
      d.users[i] = next;
    });
    return next;
  }

  async remove(id: string): Promise<UserRecord> {
    const current = this.get(id);
    await this.doc.update((d) => {
      d.users = d.users.filter((u) => u.id !== id);
    });
    return current;
  }
}
