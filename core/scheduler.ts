/**
 * Periodic jobs of the server process (ARCHITECTURE §6): expired sessions, reset tokens and invitations
 * pruned, expired lockouts lifted, stale temp files removed. One-shot CLI commands never start it.
 */
import type { Parts } from "./parts.js";
import { removeStaleTempFiles } from "./storage/atomic-write.js";
import { WEBHOOK_INTERVAL_MS } from "./webhooks/webhooks-service.js";
import { runDailyWeekJobs } from "./mealplans/daily.js";

/** Jobs are the site's own: they run against the whole Larder, as it is after any reload. */
type Deps = Parts;

export interface Job {
  name: string;
  everyMs: number;
  run(larder: Deps): Promise<unknown>;
}

export const JOBS: Job[] = [
  { name: "prune sessions, reset tokens and lockouts", everyMs: 15 * 60_000, run: (l) => l.auth.prune() },
  { name: "prune invitations", everyMs: 60 * 60_000, run: (l) => l.registration.invitations.prune() },
  {
    name: "remove stale temp files",
    everyMs: 60 * 60_000,
    run: (l) => removeStaleTempFiles(l.folder.tmpDir),
  },
  { name: "meal-plan webhooks", everyMs: WEBHOOK_INTERVAL_MS, run: (l) => l.webhooks.runScheduled() },
  {
    name: "household week: planned recipes made, checked items trimmed (daily)",
    everyMs: 5 * 60_000,
    run: (l) => runDailyWeekJobs(l),
  },
  {
    name: "nightly backup (LARDER_BACKUP_SCHEDULE)",
    everyMs: 5 * 60_000,
    run: (l) => l.backups.runScheduled(),
  },
  { name: "demo reset (LARDER_DEMO_RESET_MINUTES)", everyMs: 60_000, run: (l) => l.demo.runScheduled() },
];

/** Starts every job (first run after one interval); returns the function that stops them. */
export function startScheduler(larder: Deps, jobs: Job[] = JOBS): () => void {
  const timers = jobs.map((job) => {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      job
        .run(larder)
        .catch((e: unknown) => larder.log.error(`scheduled job "${job.name}" failed`, e))
        .finally(() => {
          running = false;
        });
    }, job.everyMs);
    // Jobs never keep the process alive on their own.
    timer.unref();
    return timer;
  });
  return () => timers.forEach((t) => clearInterval(t));
}
