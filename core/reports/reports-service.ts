/**
 * Group reports (mealie-api-notes §4.4): what an import, a migration, a backup or a restore did, entry
 * by entry. One file per report, `groups/<group>/reports/<id>.json`, so a long migration rewrites only
 * its own report and deleting one is deleting a file.
 *
 * Features that produce reports use `start()` and the writer it returns; the API reads, lists and
 * deletes. Reads go to disk each time (a report deleted or edited by hand is seen at once).
 */
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { z } from "zod";
import type { Actor } from "../actor.js";
import type { Parts } from "../parts.js";
import type { GroupData } from "../groups/registry.js";
import { NotFoundError, ValidationError } from "../errors.js";
import { JsonDoc } from "../storage/json-doc.js";
import { errnoCode } from "../storage/atomic-write.js";
import { isUuid, newId } from "../util/ids.js";
import { lazySchema } from "../util/lazy-schema.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "folder" | "groups" | "log">;

export const REPORT_CATEGORIES = ["backup", "restore", "migration", "bulk_import"] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];
export const REPORT_STATUSES = ["in-progress", "success", "failure", "partial"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

const ReportEntryRecord = lazySchema(() =>
  z.object({
    id: z.string(),
    timestamp: z.string(),
    success: z.boolean().default(true),
    message: z.string().default(""),
    exception: z.string().default(""),
  }),
);
export const ReportRecord = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    category: z.enum(REPORT_CATEGORIES),
    status: z.enum(REPORT_STATUSES).default("in-progress"),
    timestamp: z.string(),
    entries: z.array(ReportEntryRecord).default([]),
  }),
);
export type ReportRecord = z.infer<typeof ReportRecord>;

/** ReportSummary of the contract. */
export interface ReportSummary {
  timestamp: string;
  category: ReportCategory;
  groupId: string;
  name: string;
  status: ReportStatus;
  id: string;
}
/** ReportEntryOut of the contract. */
export interface ReportEntryOut {
  reportId: string;
  timestamp: string;
  success: boolean;
  message: string;
  exception: string;
  id: string;
}
/** ReportOut of the contract. */
export interface ReportOut extends ReportSummary {
  entries: ReportEntryOut[];
}

export interface ReportEntryInput {
  success: boolean;
  message: string;
  /** The error's text, for failures. */
  exception?: string | null;
}

/** A report being written by a feature (an import, a migration). */
export interface ReportWriter {
  readonly id: string;
  /** Record one entry. Entries are written in batches; `finish()` waits for them. */
  add(entry: ReportEntryInput): void;
  /**
   * Set the final status and wait until the report is on disk. Without a status: `success` when every
   * entry succeeded (or there are none), `failure` when every entry failed, `partial` otherwise.
   */
  finish(status?: Exclude<ReportStatus, "in-progress">): Promise<ReportSummary>;
}

/** How long a report's new entries wait to be written together. */
const REPORT_WRITE_MS = 500;

const ReportTypeQuery = lazySchema(() => z.enum(REPORT_CATEGORIES).nullish());

export class ReportsService {
  constructor(private readonly larder: Deps) {}

  /** GET /groups/reports?report_type=: the group's reports, newest first. */
  async list(actor: Actor, reportType?: unknown): Promise<ReportSummary[]> {
    const group = this.groupOf(actor);
    const parsed = ReportTypeQuery.safeParse(reportType === "" ? null : reportType);
    if (!parsed.success) {
      throw new ValidationError([
        {
          loc: ["query", "report_type"],
          msg: `Input should be ${REPORT_CATEGORIES.map((c) => `'${c}'`).join(", ")}`,
          type: "enum",
          input: reportType,
        },
      ]);
    }
    const dir = this.larder.folder.reportsDir(group.slug);
    let names: string[] = [];
    try {
      names = await readdir(dir);
    } catch (e) {
      if (errnoCode(e) !== "ENOENT") throw e;
    }
    const out: ReportSummary[] = [];
    for (const name of names) {
      const id = name.endsWith(".json") ? name.slice(0, -5) : "";
      if (!isUuid(id)) continue;
      const rec = await this.read(group, id);
      if (!rec) continue;
      if (parsed.data && rec.category !== parsed.data) continue;
      out.push(summary(rec, group));
    }
    return out.sort((a, b) => b.timestamp.localeCompare(a.timestamp) || a.id.localeCompare(b.id));
  }

  /** GET /groups/reports/{id}. */
  async get(actor: Actor, id: string): Promise<ReportOut> {
    const group = this.groupOf(actor);
    const rec = isUuid(id) ? await this.read(group, id.toLowerCase()) : null;
    if (!rec) throw new NotFoundError();
    return present(rec, group);
  }

  /** DELETE /groups/reports/{id}. */
  async remove(actor: Actor, id: string): Promise<{ message: string; error: false }> {
    const group = this.groupOf(actor);
    const rec = isUuid(id) ? await this.read(group, id.toLowerCase()) : null;
    if (!rec) throw new NotFoundError();
    await rm(this.larder.folder.reportFile(group.slug, rec.id), { force: true });
    return { message: "Report deleted.", error: false };
  }

  /** Begin a report in the actor's group; it is on disk (status `in-progress`) when this resolves. */
  async start(actor: Actor, input: { name: string; category: ReportCategory }): Promise<ReportWriter> {
    const group = this.groupOf(actor);
    const rec = ReportRecord.parse({
      id: newId(),
      name: input.name,
      category: input.category,
      status: "in-progress",
      timestamp: new Date().toISOString(),
      entries: [],
    });
    await mkdir(this.larder.folder.reportsDir(group.slug), { recursive: true });
    const doc = await JsonDoc.open<ReportRecord>(this.larder.folder.reportFile(group.slug, rec.id), {
      schema: ReportRecord,
      tmpDir: this.larder.folder.tmpDir,
      defaults: () => structuredClone(rec),
    });
    await doc.update(() => rec);
    const log = this.larder.log;
    let failedWrite: unknown = null;
    // Entries wait here and go out together, at most every REPORT_WRITE_MS: each write is the whole
    // report, so a write per entry made a migration of thousands of recipes quadratic.
    let buffer: ReportRecord["entries"] = [];
    let flushing: Promise<void> | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const later = () => {
      timer ??= setTimeout(() => {
        timer = null;
        void flush();
      }, REPORT_WRITE_MS);
    };
    const flush = (): Promise<void> => {
      if (flushing) return flushing;
      if (buffer.length === 0) return Promise.resolve();
      const batch = buffer;
      buffer = [];
      flushing = doc
        // The entries so far are kept as they are, not copied: only the batch is new.
        .replace((d) => ({ ...d, entries: [...d.entries, ...batch] }))
        .catch((e: unknown) => {
          failedWrite ??= e;
          log.error(`could not write report ${rec.id}`, e);
        })
        .finally(() => {
          flushing = null;
          if (buffer.length > 0) later();
        });
      return flushing;
    };
    return {
      id: rec.id,
      add(entry) {
        buffer.push({
          id: newId(),
          timestamp: new Date().toISOString(),
          success: entry.success,
          message: entry.message,
          exception: entry.exception ?? "",
        });
        if (!flushing) later();
      },
      async finish(status) {
        if (timer) clearTimeout(timer);
        timer = null;
        while (flushing || buffer.length > 0) await flush();
        // A write that ended meanwhile may have set the timer again for entries the loop then wrote.
        if (timer) clearTimeout(timer);
        timer = null;
        if (failedWrite) throw failedWrite;
        await doc.update((d) => {
          d.status = status ?? derivedStatus(d.entries);
        });
        return summary(doc.data, group);
      },
    };
  }

  private groupOf(actor: Actor): GroupData {
    return this.larder.groups.scopeOf(actor).group;
  }

  private async read(group: GroupData, id: string): Promise<ReportRecord | null> {
    let text: string;
    try {
      text = await readFile(this.larder.folder.reportFile(group.slug, id), "utf8");
    } catch (e) {
      if (errnoCode(e) === "ENOENT") return null;
      throw e;
    }
    let parsed: ReportRecord;
    try {
      parsed = ReportRecord.parse(JSON.parse(text));
    } catch (e) {
      // A broken report is skipped in lists and answers 404 alone; the file is left as it is.
      this.larder.log.warn(`report ${id} of group ${group.slug} cannot be read: ${(e as Error).message}`);
      return null;
    }
    return parsed.id === id ? parsed : { ...parsed, id };
  }
}

function derivedStatus(entries: readonly { success: boolean }[]): Exclude<ReportStatus, "in-progress"> {
  const ok = entries.filter((e) => e.success).length;
  if (ok === entries.length) return "success";
  return ok === 0 ? "failure" : "partial";
}

function summary(r: ReportRecord, g: GroupData): ReportSummary {
  return {
    timestamp: r.timestamp,
    category: r.category,
    groupId: g.doc.data.id,
    name: r.name,
    status: r.status,
    id: r.id,
  };
}

function present(r: ReportRecord, g: GroupData): ReportOut {
  return {
    ...summary(r, g),
    entries: r.entries.map((e) => ({
      reportId: r.id,
      timestamp: e.timestamp,
      success: e.success,
      message: e.message,
      exception: e.exception,
      id: e.id,
    })),
  };
}
