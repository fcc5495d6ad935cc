/**
 * A thread of the worker pool (pool.ts). Each kind of task loads its code on first use, so a thread
 * that only hashes passwords never loads the recipe parser.
 */
import { applyInheritedV8Flags } from "../util/v8-flags.js";
import type { Answers, Task } from "./pool.js";
import { asTaskFailure, type TaskFailure } from "./task-failure.js";

// Before anything else this thread allocates: its start reset the server's V8 flags (decision 0189).
applyInheritedV8Flags();

export default async function run(task: Task): Promise<Answers[Task["op"]] | TaskFailure> {
  try {
    return await runTask(task);
  } catch (e) {
    const failure = asTaskFailure(e);
    if (failure) return failure;
    throw e;
  }
}

async function runTask(task: Task): Promise<Answers[Task["op"]]> {
  switch (task.op) {
    case "hash": {
      const bcrypt = await import("bcryptjs");
      return bcrypt.hashSync(task.password, bcrypt.genSaltSync(task.rounds));
    }
    case "compare": {
      const bcrypt = await import("bcryptjs");
      return bcrypt.compareSync(task.password, task.hash);
    }
    case "parse": {
      const { parseBatch } = await import("../recipes/store/parse-pool.js");
      return parseBatch(task.batch);
    }
    case "parsePacked": {
      const { parsePacked } = await import("../recipes/store/parse-pool.js");
      return parsePacked(task.batch);
    }
    case "backup": {
      const { writeBackup } = await import("../backups/archive.js");
      return writeBackup(task.root, task.target, { secrets: task.secrets });
    }
  }
}
