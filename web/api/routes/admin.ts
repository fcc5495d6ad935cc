/**
 * /api/admin (mealie-api-notes §4.13): about, users, groups, households, e-mail and analytics. The
 * router answers 403 to non-admins before a handler runs; core checks again (larder.accounts,
 * larder.groupAdmin, larder.siteReport), so the rule holds for any other caller too.
 */
import { z } from "zod";
import { lazySchema } from "../../../core/util/lazy-schema.js";
import { route } from "../router.js";
import { Reply } from "../reply.js";
import { appInfo, LARDER_VERSION, MEALIE_API_VERSION } from "./app.js";
import { listed } from "../listed.js";
import { emailField } from "../../../core/users/user-input.js";

const EmailTestBody = lazySchema(() => z.object({ email: emailField }));
const ResetTokenBody = lazySchema(() =>
  z.object({ email: z.string({ error: "This Field is Required" }).max(320) }),
);

const isTrue = (v: string | null) => /^(1|true|yes|on)$/i.test(v ?? "");

export const adminRoutes = [
  // ---- about ----
  route("GET", "/api/admin/about", "admin", (ctx) => {
    const l = ctx.larder;
    const found = l.directory.defaultGroup();
    return {
      ...appInfo(l),
      versionLatest: MEALIE_API_VERSION,
      larderVersion: LARDER_VERSION,
      apiPort: l.config.port,
      apiDocs: false,
      dbType: "files",
      dbUrl: null,
      defaultGroup: found?.group.name ?? "",
      defaultHousehold: found?.household?.name ?? "",
      buildId: "",
      recipeScraperVersion: "",
    };
  }),
  route("GET", "/api/admin/about/statistics", "admin", (ctx) => ctx.larder.siteReport.statistics(ctx.actor)),
  route("GET", "/api/admin/about/check", "admin", (ctx) => ctx.larder.siteReport.check(ctx.actor)),
  route("GET", "/api/admin/analytics", "admin", (ctx) => ctx.larder.siteReport.analytics(ctx.actor)),

  // ---- users ----
  route("GET", "/api/admin/users", "admin", (ctx) =>
    listed(ctx, "/api/admin/users", (q) => ctx.larder.accounts.list(ctx.actor, q)),
  ),
  route("POST", "/api/admin/users", "admin", async (ctx) =>
    Reply.created(
      ctx.larder.directory.userOut(await ctx.larder.accounts.create(ctx.actor, await ctx.json())),
    ),
  ),
  route("POST", "/api/admin/users/unlock", "admin", async (ctx) => ({
    unlocked: await ctx.larder.accounts.unlock(ctx.actor, isTrue(ctx.query.get("force"))),
  })),
  route("POST", "/api/admin/users/password-reset-token", "admin", async (ctx) => {
    const { email } = ResetTokenBody.parse((await ctx.json()) ?? {});
    return Reply.created({ token: await ctx.larder.accounts.resetTokenFor(ctx.actor, email) });
  }),
  route("GET", "/api/admin/users/:id", "admin", (ctx) =>
    ctx.larder.directory.userOut(ctx.larder.accounts.visibleUser(ctx.actor, ctx.params.id)),
  ),
  route("PUT", "/api/admin/users/:id", "admin", async (ctx) =>
    ctx.larder.directory.userOut(
      await ctx.larder.accounts.update(ctx.actor, ctx.params.id, await ctx.json()),
    ),
  ),
  route("DELETE", "/api/admin/users/:id", "admin", async (ctx) => {
    const out = ctx.larder.directory.userOut(
      ctx.larder.accounts.visibleUser(ctx.actor, ctx.params.id),
      false,
    );
    await ctx.larder.accounts.remove(ctx.actor, ctx.params.id);
    return out;
  }),
  // Larder's addition for `larder user unlock <name>`: one user rather than every locked one.
  route("POST", "/api/admin/users/:id/unlock", "admin", async (ctx) => ({
    unlocked: await ctx.larder.accounts.unlockOne(ctx.actor, ctx.params.id),
  })),

  // ---- groups ----
  route("GET", "/api/admin/groups", "admin", (ctx) =>
    listed(ctx, "/api/admin/groups", (q) => ctx.larder.groupAdmin.listGroups(ctx.actor, q)),
  ),
  route("POST", "/api/admin/groups", "admin", async (ctx) =>
    Reply.created(await ctx.larder.groupAdmin.createGroup(ctx.actor, await ctx.json())),
  ),
  route("GET", "/api/admin/groups/:id", "admin", (ctx) =>
    ctx.larder.groupAdmin.group(ctx.actor, ctx.params.id),
  ),
  route("PUT", "/api/admin/groups/:id", "admin", async (ctx) =>
    ctx.larder.groupAdmin.updateGroup(ctx.actor, ctx.params.id, await ctx.json()),
  ),
  route("DELETE", "/api/admin/groups/:id", "admin", (ctx) =>
    ctx.larder.groupAdmin.deleteGroup(ctx.actor, ctx.params.id),
  ),

  // ---- households ----
  route("GET", "/api/admin/households", "admin", (ctx) =>
    listed(ctx, "/api/admin/households", (q) => ctx.larder.groupAdmin.listHouseholds(ctx.actor, q)),
  ),
  route("POST", "/api/admin/households", "admin", async (ctx) =>
    Reply.created(await ctx.larder.groupAdmin.createHousehold(ctx.actor, await ctx.json())),
  ),
  route("GET", "/api/admin/households/:id", "admin", (ctx) =>
    ctx.larder.groupAdmin.household(ctx.actor, ctx.params.id),
  ),
  route("PUT", "/api/admin/households/:id", "admin", async (ctx) =>
    ctx.larder.groupAdmin.updateHousehold(ctx.actor, ctx.params.id, await ctx.json()),
  ),
  route("DELETE", "/api/admin/households/:id", "admin", (ctx) =>
    ctx.larder.groupAdmin.deleteHousehold(ctx.actor, ctx.params.id),
  ),

  // ---- e-mail ----
  route("GET", "/api/admin/email", "admin", (ctx) => ({ ready: ctx.larder.email.ready })),
  route("POST", "/api/admin/email", "admin", async (ctx) => {
    const { email } = EmailTestBody.parse((await ctx.json()) ?? {});
    return ctx.larder.email.sendTest(email);
  }),
];
