/**
 * Household webhooks (mealie-api-notes §4.5, §9): at each webhook's scheduled time of day (UTC) the
 * household's meal plan for the day is POSTed as Mealie's `webhook_task` event. Stored in the
 * household's `webhooks.json`; sent through the guarded fetcher with Mealie's 15 s timeout.
 *
 * The scheduler calls `runScheduled()` every 5 minutes with the window (last run, now]. A delivery
 * that fails (refused, timed out, 4xx/5xx) is logged and tried again on the next runs, a few times;
 * deliveries run side by side, so one hanging server delays nothing else.
 */
import { rowTimeAttributes, timed, type Timed } from "../query/row-times.js";
import { z } from "zod";
import type { Actor } from "../actor.js";
import type { Parts } from "../parts.js";
import type { GroupData, HouseholdData } from "../groups/registry.js";
import { BadRequestError, NotFoundError, ValidationError } from "../errors.js";
import { DocCache } from "../storage/doc-cache.js";
import { AttributeTable, attr } from "../query/attribute-table.js";
import { listQuery } from "../query/list.js";
import type { ListQuery, Page } from "../query/list-query.js";
import { AllowList, createGuardedFetcher, type GuardedFetcher } from "../net/index.js";
import { privateHostMessage, privateHostProblem } from "../net/target-check.js";
import { eventTypeNumber, type EventDocument } from "../events/index.js";
import { isUuid, newId } from "../util/ids.js";
import { randomUUID } from "node:crypto";
import { lazySchema } from "../util/lazy-schema.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "config" | "events" | "folder" | "groups" | "log">;

/** Mealie's timeout for a webhook post. */
export const WEBHOOK_TIMEOUT_MS = 15_000;
/** How often the scheduler looks for due webhooks (Mealie's "minutely" task runs every 5 minutes). */
export const WEBHOOK_INTERVAL_MS = 5 * 60_000;
/** Attempts per scheduled delivery: the first and two retries, one scheduler run apart. */
const MAX_ATTEMPTS = 3;
/** Mealie's integration id for events the server raises itself. */
const SYSTEM_INTEGRATION_ID = "mealie_generic_user";

/**
 * Where the digest's entries come from: the household's meal-plan entries (Mealie's ReadPlanEntry,
 * camelCase) with dates in [startDate, endDate] (`yyyy-mm-dd`), in date order.
 */
export interface MealPlanSource {
  entriesBetween(
    groupId: string,
    householdId: string,
    startDate: string,
    endDate: string,
  ): readonly unknown[] | Promise<readonly unknown[]>;
}
/** Until meal plans are wired in (`useMealPlans`), there is nothing to send. */
const NO_MEAL_PLANS: MealPlanSource = { entriesBetween: () => [] };

export const WebhookRecord = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string().default(""),
    url: z.string().default(""),
    enabled: z.boolean().default(true),
    webhookType: z.literal("mealplan").default("mealplan"),
    /** UTC time of day, `HH:MM:SS`. */
    scheduledTime: z.string().regex(/^\d{2}:\d{2}:\d{2}$/),
    createdAt: z.string().nullable().default(null),
    updatedAt: z.string().nullable().default(null),
  }),
);
export type WebhookRecord = z.infer<typeof WebhookRecord>;
export const WebhooksDoc = lazySchema(() => z.object({ webhooks: z.array(WebhookRecord).default([]) }));
export type WebhooksDoc = z.infer<typeof WebhooksDoc>;

/**
 * `scheduledTime`: "HH:MM[:SS[.ffffff]]" taken as UTC, an offset time ("08:00+02:00"), or a full
 * datetime converted to UTC — as Mealie accepts them. Stored and sent as "HH:MM:SS".
 */
const ScheduledTime = lazySchema(() =>
  z.string().transform((raw, ctx) => {
    const s = raw.trim();
    const m = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(s);
    let seconds: number | null = null;
    if (m) {
      const [h, min, sec] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
      if (h < 24 && min < 60 && sec < 60) {
        seconds = h * 3600 + min * 60 + sec;
        if (m[4] && m[4].toUpperCase() !== "Z") {
          const off = m[4].replace(":", "");
          const offset =
            (off[0] === "-" ? -1 : 1) * (Number(off.slice(1, 3)) * 3600 + Number(off.slice(3, 5)) * 60);
          seconds = (((seconds - offset) % 86400) + 86400) % 86400;
        }
      }
    } else if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(s)) {
      const d = new Date(/Z|[+-]\d{2}:?\d{2}$/i.test(s) ? s : `${s}Z`);
      if (!Number.isNaN(d.getTime()))
        seconds = d.getUTCHours() * 3600 + d.getUTCMinutes() * 60 + d.getUTCSeconds();
    }
    if (seconds === null) {
      ctx.addIssue({ code: "custom", message: "Input should be in a valid time format" });
      return z.NEVER;
    }
    return timeOfDay(seconds);
  }),
);

export const WebhookIn = lazySchema(() =>
  z
    .object({
      enabled: z.boolean().default(true),
      name: z.string().max(255, "Must Be At Most 255 Characters").default(""),
      url: z.string().trim().max(2048, "Must Be At Most 2048 Characters").default(""),
      webhookType: z.literal("mealplan").default("mealplan"),
      scheduledTime: ScheduledTime,
    })
    .loose(),
);

/** ReadWebhook of the contract. */
export interface ReadWebhook {
  enabled: boolean;
  name: string;
  url: string;
  webhookType: "mealplan";
  scheduledTime: string;
  groupId: string;
  householdId: string;
  id: string;
}

type W = ReadWebhook;
export const webhookAttributes = new AttributeTable<Timed<ReadWebhook>>("webhook", {
  ...rowTimeAttributes<W>(),
  id: attr.uuid((w: W) => w.id),
  name: attr.string((w: W) => w.name),
  url: attr.string((w: W) => w.url),
  enabled: attr.boolean((w: W) => w.enabled),
  webhookType: attr.string((w: W) => w.webhookType),
  scheduledTime: attr.string((w: W) => w.scheduledTime),
  groupId: attr.uuid((w: W) => w.groupId),
  householdId: attr.uuid((w: W) => w.householdId),
});

/** The event a webhook receives, camelCase, `eventType` as Mealie's integer (mealie-api-notes §9). */
export interface WebhookPayload {
  message: { title: string; body: string };
  eventType: number;
  integrationId: string;
  documentData: Extract<EventDocument, { webhookBody: unknown[] }>;
  eventId: string;
  timestamp: string;
}

interface Pending {
  groupId: string;
  householdId: string;
  webhookId: string;
  payload: WebhookPayload;
  attempts: number;
}

export interface WebhooksOptions {
  timeoutMs?: number;
  fetcher?: GuardedFetcher;
}

export class WebhooksService {
  private readonly docs: DocCache<WebhooksDoc>;
  private readonly fetcher: GuardedFetcher;
  private readonly allow: AllowList;
  private readonly timeoutMs: number;
  private mealPlans: MealPlanSource = NO_MEAL_PLANS;
  /** End of the last scheduled window; Mealie starts counting when the server starts. */
  private lastRun = new Date();
  private retries: Pending[] = [];

  private constructor(
    private readonly larder: Deps,
    opts: WebhooksOptions,
  ) {
    this.docs = new DocCache<WebhooksDoc>({
      schema: WebhooksDoc,
      defaults: () => WebhooksDoc.parse({}),
      tmpDir: larder.folder.tmpDir,
      arraysSortedBy: ["webhooks"],
      onError: (path, e) => larder.log.error(`could not open ${path}:`, e),
    });
    this.fetcher = opts.fetcher ?? createGuardedFetcher(larder.config);
    this.allow = new AllowList(larder.config.fetchAllow);
    this.timeoutMs = opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  }

  static async open(larder: Deps, opts: WebhooksOptions = {}): Promise<WebhooksService> {
    const s = new WebhooksService(larder, opts);
    for (const g of larder.groups.all())
      for (const h of g.households.values()) await s.docs.get(s.pathOf(g, h));
    return s;
  }

  /** Where the digests' meal-plan entries come from (the meal-plan service, once it exists). */
  useMealPlans(source: MealPlanSource): void {
    this.mealPlans = source;
  }

  list(actor: Actor, query: ListQuery): Page<ReadWebhook> {
    const { group, household } = this.scope(actor);
    const items = this.records(group, household).map((w) => timed(present(w, group, household), w));
    return listQuery(items, query, webhookAttributes, { defaultOrderBy: null });
  }

  /** Every webhook of the actor's household (`HouseholdInDB.webhooks`). */
  all(actor: Actor): ReadWebhook[] {
    const { group, household } = this.scope(actor);
    return this.records(group, household).map((w) => present(w, group, household));
  }

  get(actor: Actor, id: string): ReadWebhook {
    const { group, household } = this.scope(actor);
    return present(this.record(group, household, id), group, household);
  }

  async create(actor: Actor, input: unknown): Promise<ReadWebhook> {
    const { group, household } = this.scope(actor);
    const body = this.parse(input);
    const now = new Date().toISOString();
    const rec = WebhookRecord.parse({ id: newId(), ...pick(body), createdAt: now, updatedAt: now });
    const doc = await this.docs.get(this.pathOf(group, household));
    await doc.update((d) => {
      d.webhooks.push(rec);
    });
    return present(rec, group, household);
  }

  /** PUT takes the CreateWebhook body; `groupId`/`householdId` in it are ignored. */
  async update(actor: Actor, id: string, input: unknown): Promise<ReadWebhook> {
    const { group, household } = this.scope(actor);
    const cur = this.record(group, household, id);
    const body = this.parse(input);
    const next = WebhookRecord.parse({ ...cur, ...pick(body), updatedAt: new Date().toISOString() });
    const doc = await this.docs.get(this.pathOf(group, household));
    await doc.update((d) => {
      const i = d.webhooks.findIndex((w) => w.id === cur.id);
      if (i >= 0) d.webhooks[i] = next;
    });
    return present(next, group, household);
  }

  async remove(actor: Actor, id: string): Promise<ReadWebhook> {
    const { group, household } = this.scope(actor);
    const cur = this.record(group, household, id);
    const doc = await this.docs.get(this.pathOf(group, household));
    await doc.update((d) => {
      d.webhooks = d.webhooks.filter((w) => w.id !== cur.id);
    });
    this.retries = this.retries.filter((p) => p.webhookId !== cur.id);
    return present(cur, group, household);
  }

  /**
   * POST /webhooks/{id}/test. Mealie's test sends an empty window and so, in effect, nothing; Larder
   * really sends today's digest (UTC day), even when no meal is planned, and waits for the answer so
   * the caller learns whether the webhook works (decision 0035).
   */
  async test(actor: Actor, id: string): Promise<void> {
    const { group, household } = this.scope(actor);
    const hook = this.record(group, household, id);
    if (!hook.url) throw new BadRequestError("This webhook has no URL");
    const now = new Date();
    const start = utcMidnight(now);
    const end = new Date(start.getTime() + 86_400_000 - 1);
    const entries = await this.mealPlans.entriesBetween(
      group.doc.data.id,
      household.doc.data.id,
      isoDate(start),
      isoDate(end),
    );
    const err = await this.deliver(hook, webhookPayload(start, end, entries));
    if (err) throw new BadRequestError(`The webhook test failed: ${err}`);
  }

  /** POST /webhooks/rerun: today's scheduled webhooks of the caller's household again (UTC midnight → now). */
  async rerun(actor: Actor): Promise<void> {
    const { group, household } = this.scope(actor);
    const now = new Date();
    await this.fireWindow(group, household, utcMidnight(now), now);
  }

  /**
   * The scheduler's task: retry earlier failures, then send every webhook due in (last run, now].
   * Resolves when every delivery of this run has settled; never rejects for a delivery.
   */
  async runScheduled(now = new Date()): Promise<void> {
    const start = this.lastRun;
    if (now.getTime() <= start.getTime()) return;
    this.lastRun = now;
    const retries = this.retries;
    this.retries = [];
    const work: Promise<unknown>[] = retries.map((p) => this.retry(p));
    for (const g of this.larder.groups.all())
      for (const h of g.households.values()) work.push(this.fireWindow(g, h, start, now, { retry: true }));
    await Promise.allSettled(work);
  }

  /** Failed deliveries waiting for the next run (tests, status). */
  get pendingRetries(): number {
    return this.retries.length;
  }

  /** Webhook files that a hand edit broke (`larder check`). */
  broken(): { path: string; message: string }[] {
    return this.docs.loaded().flatMap((d) => (d.broken ? [{ path: d.path, message: d.broken.message }] : []));
  }

  async idle(): Promise<void> {
    await this.docs.idle();
  }

  private async fireWindow(
    g: GroupData,
    h: HouseholdData,
    start: Date,
    end: Date,
    opts: { retry?: boolean } = {},
  ): Promise<void> {
    const due = this.records(g, h).filter((w) => w.enabled && w.url && inWindow(w.scheduledTime, start, end));
    if (due.length === 0) return;
    const entries = await this.mealPlans.entriesBetween(
      g.doc.data.id,
      h.doc.data.id,
      isoDate(start),
      isoDate(end),
    );
    // Mealie's rule: no planned meal in the window, nothing sent.
    if (entries.length === 0) return;
    const payload = webhookPayload(start, end, entries);
    await Promise.all(
      due.map(async (hook) => {
        const err = await this.deliver(hook, payload);
        if (err && opts.retry)
          this.retries.push({
            groupId: g.doc.data.id,
            householdId: h.doc.data.id,
            webhookId: hook.id,
            payload,
            attempts: 1,
          });
      }),
    );
    // Notifiers that follow "webhook task" hear that the digest went out.
    this.larder.events.publish({
      eventType: "webhook_task",
      groupId: g.doc.data.id,
      householdId: h.doc.data.id,
      integrationId: SYSTEM_INTEGRATION_ID,
      documentData: payload.documentData,
    });
  }

  private async retry(p: Pending): Promise<void> {
    const found = this.larder.groups.household(p.groupId, p.householdId);
    const hook = found
      ? this.records(this.larder.groups.byId(p.groupId)!, found).find((w) => w.id === p.webhookId)
      : undefined;
    if (!hook || !hook.enabled || !hook.url) return;
    const err = await this.deliver(hook, p.payload);
    if (!err) return;
    if (p.attempts + 1 < MAX_ATTEMPTS) this.retries.push({ ...p, attempts: p.attempts + 1 });
    else this.larder.log.warn(`webhook "${hook.name}" gave up after ${MAX_ATTEMPTS} attempts`);
  }

  /** POST the payload; returns null on success or the public reason it failed (already logged). */
  private async deliver(hook: WebhookRecord, payload: WebhookPayload): Promise<string | null> {
    try {
      await this.fetcher(hook.url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(payload),
        timeoutMs: this.timeoutMs,
        maxBytes: 64 * 1024,
      });
      return null;
    } catch (e) {
      const reason = (e as { reason?: string }).reason ?? (e instanceof Error ? e.message : String(e));
      this.larder.log.warn(`webhook "${hook.name}" (${hook.id}) failed: ${reason}`);
      return e instanceof Error ? e.message : String(e);
    }
  }

  private parse(input: unknown): z.infer<typeof WebhookIn> {
    const body = WebhookIn.parse(input ?? {});
    if (body.url) {
      let url: URL;
      try {
        url = new URL(body.url);
      } catch {
        throw urlIssue("Input should be a valid URL", body.url);
      }
      if (url.protocol !== "http:" && url.protocol !== "https:")
        throw urlIssue("URL scheme should be 'http' or 'https'", body.url);
      const problem = privateHostProblem(url.hostname, this.allow);
      if (problem) throw urlIssue(privateHostMessage(problem), body.url);
    }
    return body;
  }

  private scope(actor: Actor): { group: GroupData; household: HouseholdData } {
    const { group, household } = this.larder.groups.scopeOf(actor);
    return { group, household };
  }

  private pathOf(g: GroupData, h: HouseholdData): string {
    return this.larder.folder.webhooksJson(g.slug, h.slug);
  }

  private records(g: GroupData, h: HouseholdData): WebhookRecord[] {
    return this.docs.data(this.pathOf(g, h)).webhooks;
  }

  private record(g: GroupData, h: HouseholdData, id: string): WebhookRecord {
    const found = isUuid(id) ? this.records(g, h).find((w) => w.id === id.toLowerCase()) : undefined;
    if (!found) throw new NotFoundError();
    return found;
  }
}

function pick(
  b: z.infer<typeof WebhookIn>,
): Pick<WebhookRecord, "enabled" | "name" | "url" | "webhookType" | "scheduledTime"> {
  return {
    enabled: b.enabled,
    name: b.name,
    url: b.url,
    webhookType: b.webhookType,
    scheduledTime: b.scheduledTime,
  };
}

function urlIssue(msg: string, input: string): ValidationError {
  return new ValidationError([{ loc: ["body", "url"], msg, type: "value_error", input }]);
}

function present(w: WebhookRecord, g: GroupData, h: HouseholdData): ReadWebhook {
  return {
    enabled: w.enabled,
    name: w.name,
    url: w.url,
    webhookType: w.webhookType,
    scheduledTime: w.scheduledTime,
    groupId: g.doc.data.id,
    householdId: h.doc.data.id,
    id: w.id,
  };
}

export function webhookPayload(start: Date, end: Date, entries: readonly unknown[]): WebhookPayload {
  return {
    message: { title: "Webhook Task", body: "generic" },
    eventType: eventTypeNumber("webhook_task"),
    integrationId: SYSTEM_INTEGRATION_ID,
    documentData: {
      documentType: "mealplan",
      operation: "info",
      webhookStartDt: start.toISOString(),
      webhookEndDt: end.toISOString(),
      webhookBody: [...entries],
    },
    eventId: randomUUID(),
    timestamp: new Date().toISOString(),
  };
}

function timeOfDay(seconds: number): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(Math.floor(seconds / 3600))}:${p(Math.floor(seconds / 60) % 60)}:${p(seconds % 60)}`;
}

function secondsOfDay(d: Date): number {
  return d.getUTCHours() * 3600 + d.getUTCMinutes() * 60 + d.getUTCSeconds();
}

/**
 * Whether a time of day falls in (start, end]. Unlike Mealie, a window that crosses midnight still
 * catches the times on both sides of it, and a window of a day or more catches every time.
 */
export function inWindow(time: string, start: Date, end: Date): boolean {
  if (end.getTime() - start.getTime() >= 86_400_000) return true;
  const [h, m, s] = time.split(":").map(Number);
  const t = h * 3600 + m * 60 + s;
  const a = secondsOfDay(start);
  const b = secondsOfDay(end);
  return a <= b ? t > a && t <= b : t > a || t <= b;
}

function utcMidnight(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}
