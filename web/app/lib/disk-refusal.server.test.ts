import { describe, expect, it } from "vitest";
import type { AppLoadContext } from "react-router";
import { diskRefusal } from "./errors.server.js";
import { runPlannerIntent, runRuleIntent } from "./mealplan.server.js";
import { runTimelineIntent } from "./timeline.server.js";
import { changePassword, createToken, updateDetails } from "./profile.server.js";
import { importProblem } from "./imports.server.js";
import type { UserActor } from "./session.server.js";

const diskFull = () =>
  Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write" });
const FULL = /disk holding the data folder is full.*not saved.*unchanged/;

/** A context whose services all throw `e` on every call, logging warnings into `logged`. */
function contextThrowing(e: () => Error, logged: string[]): AppLoadContext {
  const failing = new Proxy(
    {},
    {
      get: () => () => {
        throw e();
      },
    },
  );
  const log = { warn: (...args: unknown[]) => logged.push(args.map(String).join(" ")) };
  return {
    larder: { log, mealplans: failing, timeline: failing, accounts: failing, auth: failing },
  } as unknown as AppLoadContext;
}

const actor = { kind: "user", user: { id: "u1", groupId: "g1" } } as unknown as UserActor;

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

describe("forms whose write the disk refuses", () => {
  it("names the refusal with core's message and logs it; other errors get null", () => {
    const logged: string[] = [];
    const log = { warn: (...args: unknown[]) => logged.push(args.map(String).join(" ")) };
    expect(diskRefusal(log, "meal plan: create", diskFull())).toMatch(FULL);
    expect(logged.join("\n")).toMatch(/meal plan: create not saved/);
    expect(diskRefusal(log, "x", new RangeError("a bug"))).toBeNull();
    expect(
      diskRefusal(log, "x", Object.assign(new Error("denied"), { code: "EACCES", syscall: "read" })),
    ).toBeNull();
  });

  it("keeps the meal planner on its page with the reason, instead of the error page", async () => {
    const logged: string[] = [];
    const ctx = contextThrowing(diskFull, logged);
    const entry = { intent: "create", date: "2026-12-07", entryType: "dinner", title: "Soup" };
    const got = await runPlannerIntent(ctx, actor, form(entry));
    expect(got).toMatchObject({ intent: "create", ok: false, error: "failed" });
    expect(!got.ok && got.message).toMatch(FULL);
    const rule = await runRuleIntent(ctx, actor, form({ intent: "create", day: "monday" }));
    expect(!rule.ok && rule.message).toMatch(FULL);
    expect(logged.join("\n")).toMatch(/meal plan: create not saved[\s\S]*meal plan rule: create not saved/);
  });

  it("still sends a bug in the planner to the error page", async () => {
    const ctx = contextThrowing(() => new RangeError("a bug"), []);
    await expect(runPlannerIntent(ctx, actor, form({ intent: "create" }))).rejects.toThrow("a bug");
  });

  it("keeps a timeline entry's form with the reason", async () => {
    const ctx = contextThrowing(diskFull, []);
    const request = new Request("http://larder.test/timeline", {
      method: "POST",
      body: new URLSearchParams({ intent: "create", recipeId: "r1", subject: "Made it" }),
    });
    const got = await runTimelineIntent(request, ctx, actor);
    expect(got).toMatchObject({ intent: "create", ok: false, error: "failed" });
    expect(!got.ok && got.message).toMatch(FULL);
  });

  it("keeps the profile page's details, password and token forms with the reason", async () => {
    const ctx = contextThrowing(diskFull, []);
    const t = (k: string) => k;
    const details = await updateDetails(
      ctx,
      actor,
      form({ username: "cook", fullName: "A Cook", email: "cook@example.com" }),
      t,
    );
    expect(details.toast?.message).toMatch(FULL);
    const password = await changePassword(
      ctx,
      actor,
      form({
        currentPassword: "MyPassword",
        newPassword: "a much longer one 42!",
        confirmPassword: "a much longer one 42!",
      }),
      t,
    );
    expect(password).toMatchObject({ intent: "password", toast: { type: "error" } });
    expect(password.toast?.message).toMatch(FULL);
    const token = await createToken(ctx, actor, form({ name: "scripts" }), t);
    expect(token.toast?.message).toMatch(FULL);
  });

  it("says why an import was not saved", () => {
    const got = importProblem(contextThrowing(diskFull, []), "https://example.com/soup", diskFull());
    expect(got).toMatchObject({ ok: false, error: "other" });
    expect(!got.ok && got.message).toMatch(FULL);
  });
});
