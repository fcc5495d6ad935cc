/**
 * What the settings screens (data management, household and group settings; spec §2) share on the
 * server: the guarded viewer with the drawer's data, and running a core write so that a refusal becomes
 * a toast on the same page instead of an error page.
 */
import type { AppLoadContext } from "react-router";
import { requireGuards, type RouteGuards } from "./guards.server.js";
import { shellData, type ShellData } from "./shell.server.js";
import type { UserActor } from "./session.server.js";
import { diskRefusal, statusOf } from "./errors.server.js";
import type { LoaderArgs } from "./context.js";
import type { ToastData } from "./toast.js";

export interface SettingsViewer {
  actor: UserActor;
  shell: ShellData | null;
}

/** The signed-in user when the route's guards pass (else a redirect to /, spec §6), with the drawer. */
export async function settingsViewer(
  args: Pick<LoaderArgs, "request" | "context" | "params">,
  guards: RouteGuards,
): Promise<SettingsViewer> {
  const actor = await requireGuards(args, guards);
  const group = args.context.larder.directory.groupById(actor.user.groupId);
  const shell = group
    ? shellData(args.context, {
        actor,
        groupSlug: group.slug,
        groupName: group.name,
        ownGroup: true,
      })
    : null;
  return { actor, shell };
}

/** What a settings action answers: which form it was, whether it worked, and a toast. */
export interface SettingsResult {
  intent: string;
  ok: boolean;
  toast?: ToastData;
  /** Anything the form shows afterwards (a created invitation link, say). */
  value?: unknown;
}

/** The first message of a core error: a 422's first issue, a 400's text, zod's first issue. */
export function errorMessage(e: unknown): string {
  if (e && typeof e === "object") {
    const issues = (e as { issues?: unknown }).issues;
    if (Array.isArray(issues) && issues.length > 0) {
      const first = issues[0] as { msg?: unknown; message?: unknown; loc?: unknown; path?: unknown };
      const where = Array.isArray(first.loc)
        ? first.loc.at(-1)
        : Array.isArray(first.path)
          ? first.path.at(-1)
          : null;
      const text = String(first.msg ?? first.message ?? "");
      return where !== null && where !== undefined && where !== "body" ? `${String(where)}: ${text}` : text;
    }
  }
  return e instanceof Error ? e.message : String(e);
}

/**
 * Run a core write for a settings form. Success is a success toast with `done`; a refusal core
 * reports (400, 403, 404, 409, 422) is an error toast naming core's reason, and so is a write the
 * data folder's disk refused (full, read-only); anything else is a bug and goes to the error page.
 */
export async function settingsWrite(
  context: AppLoadContext,
  intent: string,
  done: string,
  fn: () => unknown | Promise<unknown>,
): Promise<SettingsResult> {
  try {
    const value = await fn();
    return { intent, ok: true, toast: { type: "success", message: done }, value };
  } catch (e) {
    const status = statusOf(e) ?? (isZodError(e) ? 422 : null);
    if (status !== null && status >= 400 && status < 500) {
      context.larder.log.warn(`settings: ${intent} refused (${status}): ${errorMessage(e)}`);
      return { intent, ok: false, toast: { type: "error", message: errorMessage(e) } };
    }
    const refused = diskRefusal(context.larder.log, `settings: ${intent}`, e);
    if (refused) return { intent, ok: false, toast: { type: "error", message: refused } };
    throw e;
  }
}

function isZodError(e: unknown): boolean {
  return !!e && typeof e === "object" && (e as { name?: unknown }).name === "ZodError";
}

/** A form field as text ("" when absent). */
export const field = (form: FormData, name: string): string => String(form.get(name) ?? "");
/** A checkbox or switch: present and not "false"/"off". */
export const flag = (form: FormData, name: string): boolean => {
  const v = form.get(name);
  return v !== null && v !== "false" && v !== "off";
};
/** An optional text field: null when blank. */
export const optional = (form: FormData, name: string): string | null => field(form, name).trim() || null;
