/**
 * Shared by the admin screens, sign-up, setup and password reset: run a core call from an action and
 * turn what it throws into what a form shows — field problems (zod issues, "username is taken") or a
 * toast with core's refusal, translated when lib/admin-messages.ts knows it.
 */
import { diskRefusal, statusOf } from "./errors.server.js";
import { CORE_MESSAGE_KEYS, validationKey } from "./admin-messages.js";
import type { ToastData } from "./toast.js";
import type { Problem } from "./validation.js";

/** A translate function: serverT's (lib/i18n.server.ts). */
export type Translate = (key: string, values?: Record<string, unknown>) => string;

/** What an action's attempt needs besides the call: its translations, and the log a disk refusal goes to. */
export interface AttemptContext {
  t: Translate;
  log: { warn(...args: unknown[]): void };
}

export interface FormResult<T = undefined> {
  intent: string;
  ok: boolean;
  problems?: Record<string, Problem>;
  toast?: ToastData;
  value?: T;
}

function problemOf(message: string): Problem {
  return validationKey(message) ?? { key: "admin:errors.raw", values: { message } };
}

/** A message of core, translated when known. */
export function coreMessage(t: Translate, message: string): string {
  const key = CORE_MESSAGE_KEYS[message];
  return key ? String(t(key)) : message;
}

/**
 * Run `fn`; success gives `{ ok: true, value, toast: success }`. Validation problems come back per
 * field (the first path segment names the field); a 409 about the username, e-mail or group name too.
 * Refusals (400, 403, 404) and writes the data folder's disk refused (full, read-only) become an error
 * toast, the refusal also logged as a warning. Anything else is a real failure and is rethrown.
 */
export async function attempt<T>(
  intent: string,
  { t, log }: AttemptContext,
  fn: () => Promise<T> | T,
  success?: string | ((value: T) => string),
): Promise<FormResult<T>> {
  try {
    const value = await fn();
    const message = typeof success === "function" ? success(value) : success;
    return { intent, ok: true, value, toast: message ? { type: "success", message } : undefined };
  } catch (e) {
    if (e instanceof Error && e.name === "ZodError" && "issues" in e) {
      const problems: Record<string, Problem> = {};
      for (const issue of (e as { issues: Array<{ path: PropertyKey[]; message: string }> }).issues) {
        const field = String(issue.path[0] ?? "form");
        problems[field] ??= problemOf(issue.message);
      }
      return { intent, ok: false, problems };
    }
    const status = statusOf(e);
    const message = e instanceof Error ? e.message : String(e);
    if (status === 409) {
      if (/username/i.test(message))
        return { intent, ok: false, problems: { username: { key: "validation.usernameTaken" } } };
      if (/email/i.test(message))
        return { intent, ok: false, problems: { email: { key: "validation.emailTaken" } } };
      if (/group name/i.test(message))
        return { intent, ok: false, problems: { group: { key: "onboarding:register.groupTaken" } } };
    }
    if (status === 400 || status === 403 || status === 404 || status === 409 || status === 422) {
      return { intent, ok: false, toast: { type: "error", message: coreMessage(t, message) } };
    }
    // A write the disk refused (full, read-only): core's message says so and that nothing was lost.
    const refused = diskRefusal(log, `form "${intent}"`, e);
    if (refused) return { intent, ok: false, toast: { type: "error", message: refused } };
    throw e;
  }
}

/** A form field as a string (absent → ""). */
export const field = (form: FormData, name: string): string => String(form.get(name) ?? "");
/** A checkbox or switch posted as "on"/"true". */
export const flag = (form: FormData, name: string): boolean => /^(on|true|1)$/i.test(field(form, name));
