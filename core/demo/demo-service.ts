/**
 * The demo's scheduled reset (decision 0101). When the server starts in demo mode it keeps the folder
 * as it then was in `.larder/demo-baseline.zip` (a backup, secrets left out), once: a later start
 * reuses it, and deleting the file takes a new one. Every LARDER_DEMO_RESET_MINUTES the folder is
 * restored from it, which ends every session, like an admin's restore.
 */
import { existsSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Parts } from "../parts.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "backups" | "config" | "folder" | "log">;

/** When each open Larder (one per server, known by its configuration) last reset its demo; survives the reload a reset does. */
const lastReset = new WeakMap<object, number>();

export class DemoService {
  constructor(private readonly larder: Deps) {}

  get baselinePath(): string {
    return join(this.larder.folder.privateDir, "demo-baseline.zip");
  }

  /** Take the baseline unless there is one; a no-op outside demo mode. */
  async ensureBaseline(): Promise<boolean> {
    if (!this.larder.config.demo || existsSync(this.baselinePath)) return false;
    const store = this.larder.backups.store;
    const { name } = await store.create({ secrets: false });
    await rename(join(store.dir, name), this.baselinePath);
    this.larder.log.info(`demo: baseline taken (${this.baselinePath}); the demo resets to it on schedule`);
    return true;
  }

  /** The scheduler's job: reset when the interval has passed since start or the last reset. */
  async runScheduled(now = Date.now()): Promise<boolean> {
    const minutes = this.larder.config.demoResetMinutes;
    if (!this.larder.config.demo || minutes <= 0) return false;
    const since = lastReset.get(this.larder.config);
    if (since === undefined) {
      lastReset.set(this.larder.config, now);
      return false;
    }
    if (now - since < minutes * 60_000) return false;
    await this.reset(now);
    return true;
  }

  /** Restore the baseline now (taking it first if it is missing). */
  async reset(now = Date.now()): Promise<void> {
    await this.ensureBaseline();
    lastReset.set(this.larder.config, now);
    await this.larder.backups.restoreFromFile(this.baselinePath);
    this.larder.log.info("demo: data reset to the baseline; every session has ended");
  }

  /** Forget the baseline (tests; an operator can also just delete the file). */
  async dropBaseline(): Promise<void> {
    await rm(this.baselinePath, { force: true });
  }
}
