/**
 * The activity of each group (comments and timeline events) as an append-only log partitioned by
 * month, `groups/<g>/activity/<yyyy-mm>.jsonl`, folded into memory (ARCHITECTURE §2: growing logs are
 * never one document rewritten per event). Appends apply to the fold at once, in the order they are
 * written, so a read right after a write sees it; the write itself is queued per group and fsynced.
 */
import { join } from "node:path";
import type { DataFolder } from "../storage/data-folder.js";
import type { Logger } from "../log/logger.js";
import {
  ActivityLine,
  type ActivityLineIn,
  type CommentRecord,
  type TimelineRecord,
} from "../schemas/activity.js";
import { appendLines, listJsonl, readLines } from "./jsonl.js";
import { noteChange } from "../storage/change-count.js";

/** Record ids by recipe: one recipe's records without a walk over the group's. */
class IdsByRecipe {
  private readonly ids = new Map<string, Set<string>>();

  add(recipeId: string, id: string): void {
    const ids = this.ids.get(recipeId);
    if (ids) ids.add(id);
    else this.ids.set(recipeId, new Set([id]));
  }

  delete(recipeId: string, id: string): void {
    const ids = this.ids.get(recipeId);
    ids?.delete(id);
    if (ids?.size === 0) this.ids.delete(recipeId);
  }

  /** A copy: the caller may delete while it walks. */
  of(recipeId: string): string[] {
    return [...(this.ids.get(recipeId) ?? [])];
  }
}

/** The folded state of one group's log. */
export class ActivityState {
  readonly comments = new Map<string, CommentRecord>();
  readonly events = new Map<string, TimelineRecord>();
  // A recipe's page reads its comments and its timeline; a group can hold thousands of each.
  private readonly commentIds = new IdsByRecipe();
  private readonly eventIds = new IdsByRecipe();

  /** The comments of one recipe, in no particular order. */
  commentsOf(recipeId: string): CommentRecord[] {
    return this.recordsOf(this.commentIds, this.comments, recipeId);
  }

  /** The timeline events of one recipe, in no particular order. */
  eventsOf(recipeId: string): TimelineRecord[] {
    return this.recordsOf(this.eventIds, this.events, recipeId);
  }

  private recordsOf<T>(ids: IdsByRecipe, records: Map<string, T>, recipeId: string): T[] {
    const out: T[] = [];
    for (const id of ids.of(recipeId)) {
      const r = records.get(id);
      if (r) out.push(r);
    }
    return out;
  }

  private dropComment(id: string): void {
    const c = this.comments.get(id);
    if (!c) return;
    this.comments.delete(id);
    this.commentIds.delete(c.recipeId, id);
  }

  private dropEvent(id: string): void {
    const e = this.events.get(id);
    if (!e) return;
    this.events.delete(id);
    this.eventIds.delete(e.recipeId, id);
  }

  apply(line: ActivityLine): void {
    switch (line.kind) {
      case "comment.created":
        if (this.comments.has(line.id)) return;
        this.comments.set(line.id, {
          id: line.id,
          recipeId: line.recipeId,
          userId: line.userId,
          text: line.text,
          createdAt: line.at,
          updatedAt: line.at,
        });
        this.commentIds.add(line.recipeId, line.id);
        return;
      case "comment.updated": {
        const c = this.comments.get(line.id);
        if (c) this.comments.set(c.id, { ...c, text: line.text, updatedAt: line.at });
        return;
      }
      case "comment.deleted":
        this.dropComment(line.id);
        return;
      case "timeline.created":
        if (this.events.has(line.id)) return;
        this.events.set(line.id, {
          id: line.id,
          recipeId: line.recipeId,
          userId: line.userId,
          subject: line.subject,
          eventType: line.eventType,
          eventMessage: line.eventMessage,
          image: line.image,
          timestamp: line.timestamp,
          createdAt: line.at,
          updatedAt: line.at,
        });
        this.eventIds.add(line.recipeId, line.id);
        return;
      case "timeline.updated": {
        const e = this.events.get(line.id);
        if (!e) return;
        this.events.set(e.id, {
          ...e,
          subject: line.subject ?? e.subject,
          eventMessage: line.eventMessage === undefined ? e.eventMessage : line.eventMessage,
          image: line.image === undefined ? e.image : line.image,
          updatedAt: line.at,
        });
        return;
      }
      case "timeline.deleted":
        this.dropEvent(line.id);
        return;
      case "recipe.deleted":
        for (const id of this.commentIds.of(line.recipeId)) this.dropComment(id);
        for (const id of this.eventIds.of(line.recipeId)) this.dropEvent(id);
        return;
    }
  }
}

export class ActivityLog {
  private readonly states = new Map<string, ActivityState>();
  private readonly queues = new Map<string, Promise<void>>();
  /** Per group, the batch of lines not yet being written (see append). */
  private readonly waiting = new Map<string, { path: string; lines: string[]; written: Promise<void> }>();
  /** Last `at` handed out per group: lines stay in time order even within one millisecond. */
  private readonly lastAt = new Map<string, string>();

  constructor(
    private readonly folder: DataFolder,
    private readonly log: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Read the logs of these groups. */
  async open(groupSlugs: readonly string[]): Promise<void> {
    for (const g of groupSlugs) await this.reload(g);
  }

  /** Re-read one group's log from disk (after a hand edit or a `git pull`). */
  async reload(groupSlug: string): Promise<void> {
    await this.queues.get(groupSlug);
    const state = new ActivityState();
    const dir = this.folder.activityDir(groupSlug);
    let bad = 0;
    for (const name of await listJsonl(dir)) {
      for (const text of await readLines(join(dir, name))) {
        const line = parseLine(text);
        if (line) state.apply(line);
        else bad++;
      }
    }
    if (bad > 0) this.log.warn(`activity of group ${groupSlug}: skipped ${bad} line(s) that do not parse`);
    this.states.set(groupSlug, state);
    noteChange();
  }

  /** The folded state of a group (empty for a group without activity yet). */
  state(groupSlug: string): ActivityState {
    let s = this.states.get(groupSlug);
    if (!s) {
      s = new ActivityState();
      this.states.set(groupSlug, s);
    }
    return s;
  }

  /**
   * Append a line: the fold changes now, the returned promise settles when the line is on disk. A
   * write that fails is logged here too, so callers that do not wait are not silent about it.
   */
  append(groupSlug: string, line: ActivityLineIn): Promise<ActivityLine> {
    const full = ActivityLine.parse({ ...line, at: this.stamp(groupSlug) });
    let path: string;
    try {
      // Before the fold changes: a line refused (its group folder replaced by a symlink) is not shown.
      path = this.folder.activityFile(groupSlug, full.at.slice(0, 7));
    } catch (e) {
      this.log.error(`could not append to the activity of group ${groupSlug}:`, e);
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    this.state(groupSlug).apply(full);
    noteChange();
    // Lines queued behind a write go out together once it is done: one fsync for a burst (a migration
    // appends one line per recipe), each caller still told when its own line is on disk.
    const waiting = this.waiting.get(groupSlug);
    if (waiting && waiting.path === path) {
      waiting.lines.push(JSON.stringify(full));
      return waiting.written.then(() => full);
    }
    const batch = { path, lines: [JSON.stringify(full)], written: Promise.resolve() };
    this.waiting.set(groupSlug, batch);
    const prev = this.queues.get(groupSlug) ?? Promise.resolve();
    batch.written = prev.then(() => {
      if (this.waiting.get(groupSlug) === batch) this.waiting.delete(groupSlug);
      return appendLines(path, batch.lines);
    });
    const tail = batch.written.catch((e: unknown) => this.log.error(`could not append to ${path}:`, e));
    this.queues.set(groupSlug, tail);
    return batch.written.then(() => full);
  }

  /** Resolves when every queued append has settled. */
  async idle(): Promise<void> {
    await Promise.all([...this.queues.values()]);
  }

  private stamp(groupSlug: string): string {
    let at = this.now().toISOString();
    const last = this.lastAt.get(groupSlug);
    if (last && at <= last) at = new Date(Date.parse(last) + 1).toISOString();
    this.lastAt.set(groupSlug, at);
    return at;
  }
}

function parseLine(text: string): ActivityLine | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const r = ActivityLine.safeParse(raw);
  return r.success ? r.data : null;
}
