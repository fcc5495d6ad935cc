/**
 * A system error a task of the pool ended with (a full disk while writing a backup), as its thread
 * sends it back. An error crossing threads keeps its message but loses `code` and `syscall`, and a full
 * disk must still read as one on the other side (decision 0206). Apart from pool.ts, so that a thread
 * (worker.ts) does not load the pool to use it.
 */
export interface TaskFailure {
  taskFailure: { message: string; code: string; syscall: string | null; stack: string | null };
}

/** The thread's side: a system error as a TaskFailure; null for anything else, thrown as it is. */
export function asTaskFailure(e: unknown): TaskFailure | null {
  const code = typeof e === "object" && e !== null && "code" in e ? (e as { code: unknown }).code : null;
  if (typeof code !== "string" || !(e instanceof Error)) return null;
  const syscall = (e as { syscall?: unknown }).syscall;
  return {
    taskFailure: {
      message: e.message,
      code,
      syscall: typeof syscall === "string" ? syscall : null,
      stack: e.stack ?? null,
    },
  };
}

/** The pool's side: the error again, with its code and system call. */
export function failureOf(answer: unknown): Error | null {
  if (typeof answer !== "object" || answer === null || !("taskFailure" in answer)) return null;
  const { message, code, syscall, stack } = (answer as TaskFailure).taskFailure;
  return Object.assign(new Error(message), {
    code,
    ...(syscall ? { syscall } : {}),
    ...(stack ? { stack } : {}),
  });
}
