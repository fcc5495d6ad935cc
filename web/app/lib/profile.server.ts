/**
 * The profile page's actions (spec §2 /user/profile): details, password change, API tokens. Each checks
 * the spec §5 rules again on the server and answers field problems (catalogue keys) or a toast.
 */
import type { AppLoadContext } from "react-router";
import { diskRefusal, statusOf } from "./errors.server.js";
import type { UserActor } from "./session.server.js";
import type { ToastData } from "./toast.js";
import { PASSWORD_MIN, check, hasProblems, passwordsMatch, rules, type Problems } from "./validation.js";

export type ProfileResult =
  | { intent: "details"; problems?: Problems<"username" | "fullName" | "email">; toast?: ToastData }
  | {
      intent: "password";
      problems?: Problems<"currentPassword" | "newPassword" | "confirmPassword">;
      toast?: ToastData;
      done?: boolean;
    }
  | {
      intent: "createToken";
      problems?: Problems<"name">;
      created?: { name: string; token: string };
      toast?: ToastData;
    }
  | { intent: "deleteToken"; toast?: ToastData };

const field = (form: FormData, name: string) => String(form.get(name) ?? "");

/** An error toast with core's reason when the disk refused the write; null for any other error. */
function refusedToast(context: AppLoadContext, intent: string, e: unknown): ToastData | null {
  const message = diskRefusal(context.larder.log, `profile: ${intent}`, e);
  return message ? { type: "error", message } : null;
}

export async function updateDetails(
  context: AppLoadContext,
  actor: UserActor,
  form: FormData,
  t: (k: string) => string,
): Promise<ProfileResult> {
  const username = field(form, "username").trim();
  const fullName = field(form, "fullName").trim();
  const email = field(form, "email").trim();
  const problems: Problems<"username" | "fullName" | "email"> = {
    username: check(username, rules.required, rules.noWhitespace, rules.maxLength(100)) ?? undefined,
    fullName: check(fullName, rules.required, rules.maxLength(200)) ?? undefined,
    email: check(email, rules.required, rules.email) ?? undefined,
  };
  if (hasProblems(problems)) return { intent: "details", problems };
  try {
    await context.larder.accounts.update(actor, actor.user.id, { username, fullName, email });
  } catch (e) {
    const message = e instanceof Error ? e.message : "";
    // Spec §5/§8: uniqueness is the server's, shown in the form.
    if (statusOf(e) === 409 && /username/i.test(message))
      return { intent: "details", problems: { username: { key: "validation.usernameTaken" } } };
    if (statusOf(e) === 409 && /email/i.test(message))
      return { intent: "details", problems: { email: { key: "validation.emailTaken" } } };
    const refused = refusedToast(context, "details", e);
    if (refused) return { intent: "details", toast: refused };
    context.larder.log.warn("profile: update failed", e);
    return { intent: "details", toast: { type: "error", message: t("profile.updateFailed") } };
  }
  return { intent: "details", toast: { type: "info", message: t("profile.updated") } };
}

export async function changePassword(
  context: AppLoadContext,
  actor: UserActor,
  form: FormData,
  t: (k: string) => string,
): Promise<ProfileResult> {
  const currentPassword = field(form, "currentPassword");
  const newPassword = field(form, "newPassword");
  const confirmPassword = field(form, "confirmPassword");
  const problems: Problems<"currentPassword" | "newPassword" | "confirmPassword"> = {
    currentPassword: check(currentPassword, rules.required) ?? undefined,
    newPassword:
      check(newPassword, rules.required, rules.minLength(PASSWORD_MIN), rules.maxLength(256)) ?? undefined,
    confirmPassword:
      check(confirmPassword, rules.required) ?? passwordsMatch(newPassword, confirmPassword) ?? undefined,
  };
  if (hasProblems(problems)) return { intent: "password", problems };
  try {
    await context.larder.accounts.changePassword(actor, { currentPassword, newPassword });
  } catch (e) {
    if (statusOf(e) === 400 && /current password/i.test(e instanceof Error ? e.message : "")) {
      return {
        intent: "password",
        problems: { currentPassword: { key: "shell:profile.password.invalidCurrent" } },
      };
    }
    const refused = refusedToast(context, "password", e);
    if (refused) return { intent: "password", toast: refused };
    throw e;
  }
  return { intent: "password", done: true, toast: { type: "info", message: t("profile.password.updated") } };
}

export async function createToken(
  context: AppLoadContext,
  actor: UserActor,
  form: FormData,
  t: (k: string) => string,
): Promise<ProfileResult> {
  const name = field(form, "name").trim();
  const problem = check(name, rules.required, rules.maxLength(100));
  if (problem) return { intent: "createToken", problems: { name: problem } };
  let created: { name: string; token: string };
  try {
    created = await context.larder.auth.createApiToken(actor.user.id, name, "generic");
  } catch (e) {
    const refused = refusedToast(context, "createToken", e);
    if (refused) return { intent: "createToken", toast: refused };
    throw e;
  }
  return {
    intent: "createToken",
    created: { name: created.name, token: created.token },
    toast: { type: "success", message: t("profile.tokens.created") },
  };
}

export async function deleteToken(
  context: AppLoadContext,
  actor: UserActor,
  form: FormData,
  t: (k: string) => string,
): Promise<ProfileResult> {
  const id = Number(field(form, "id"));
  if (!Number.isInteger(id)) throw new Response("Not Found", { status: 404 });
  try {
    await context.larder.auth.deleteApiToken(actor.user.id, id);
  } catch (e) {
    if (statusOf(e) === 404) throw new Response("Not Found", { status: 404 });
    const refused = refusedToast(context, "deleteToken", e);
    if (refused) return { intent: "deleteToken", toast: refused };
    throw e;
  }
  return { intent: "deleteToken", toast: { type: "success", message: t("profile.tokens.deleted") } };
}
