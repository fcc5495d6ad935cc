/**
 * Household invitation tokens (mealie-api-notes §4.5, §6) in `.larder/invitations.json`: per machine
 * and mode 0600, since a token lets anyone join a household. The token string is kept (Mealie lists
 * it back to the household), each registration spends one use, the token is gone at zero uses, and
 * it expires after `INVITATION_DAYS` (Mealie purges stale tokens after 4 days).
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { join } from "node:path";
import { z } from "zod";
import type { DataFolder } from "../storage/data-folder.js";
import { JsonDoc } from "../storage/json-doc.js";
import { lazySchema } from "../util/lazy-schema.js";

export const INVITATION_DAYS = 4;

const InvitationRecord = lazySchema(() =>
  z.object({
    token: z.string(),
    usesLeft: z.number().int().min(0),
    groupId: z.string(),
    householdId: z.string(),
    createdBy: z.string().nullable().default(null),
    createdAt: z.string(),
    /** Expiry, milliseconds since the epoch. */
    exp: z.number().int(),
  }),
);
export type InvitationRecord = z.infer<typeof InvitationRecord>;
const InvitationsDoc = lazySchema(() => z.object({ invitations: z.array(InvitationRecord).default([]) }));
type InvitationsDoc = z.infer<typeof InvitationsDoc>;

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class InvitationStore {
  private constructor(
    readonly doc: JsonDoc<InvitationsDoc>,
    private readonly now: () => number,
  ) {}

  static async open(folder: DataFolder, options: { now?: () => number } = {}): Promise<InvitationStore> {
    const doc = await JsonDoc.open<InvitationsDoc>(join(folder.privateDir, "invitations.json"), {
      defaults: () => ({ invitations: [] }),
      schema: InvitationsDoc,
      tmpDir: folder.tmpDir,
      mode: 0o600,
    });
    return new InvitationStore(doc, options.now ?? Date.now);
  }

  /** A new token for a household with `uses` registrations. */
  async create(
    place: { groupId: string; householdId: string },
    uses: number,
    createdBy: string | null,
  ): Promise<InvitationRecord> {
    const now = this.now();
    const rec: InvitationRecord = {
      token: randomBytes(24).toString("base64url"),
      usesLeft: uses,
      groupId: place.groupId,
      householdId: place.householdId,
      createdBy,
      createdAt: new Date(now).toISOString(),
      exp: now + INVITATION_DAYS * 24 * 3600 * 1000,
    };
    await this.doc.update((d) => {
      d.invitations = d.invitations.filter((i) => i.exp > now && i.usesLeft > 0);
      d.invitations.push(rec);
    });
    return rec;
  }

  /** The household's live tokens, oldest first. */
  list(householdId: string): InvitationRecord[] {
    const now = this.now();
    return this.doc.data.invitations.filter(
      (i) => i.householdId === householdId && i.exp > now && i.usesLeft > 0,
    );
  }

  /** A live token, or null (unknown, used up or expired). */
  find(token: string): InvitationRecord | null {
    const now = this.now();
    return (
      this.doc.data.invitations.find((i) => sameToken(i.token, token) && i.exp > now && i.usesLeft > 0) ??
      null
    );
  }

  /**
   * Spend one use: returns where the token leads, or null if it is not live. Decided inside the write,
   * so the last use cannot be spent twice by concurrent registrations.
   */
  async consume(token: string): Promise<{ groupId: string; householdId: string } | null> {
    if (!this.find(token)) return null;
    let place: { groupId: string; householdId: string } | null = null;
    const now = this.now();
    await this.doc.update((d) => {
      const rec = d.invitations.find((i) => sameToken(i.token, token) && i.exp > now && i.usesLeft > 0);
      if (!rec) return;
      place = { groupId: rec.groupId, householdId: rec.householdId };
      rec.usesLeft -= 1;
      d.invitations = d.invitations.filter((i) => i.usesLeft > 0 && i.exp > now);
    });
    return place;
  }

  /** Forget the tokens of a household that is being deleted. */
  async removeForHousehold(householdId: string): Promise<void> {
    if (!this.doc.data.invitations.some((i) => i.householdId === householdId)) return;
    await this.doc.update(
      (d) => void (d.invitations = d.invitations.filter((i) => i.householdId !== householdId)),
    );
  }

  /** Drop expired and used-up tokens (the scheduler's daily cleanup). */
  async prune(): Promise<number> {
    const now = this.now();
    const stale = this.doc.data.invitations.filter((i) => i.exp <= now || i.usesLeft <= 0).length;
    if (stale > 0)
      await this.doc.update(
        (d) => void (d.invitations = d.invitations.filter((i) => i.exp > now && i.usesLeft > 0)),
      );
    return stale;
  }
}
