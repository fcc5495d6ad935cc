/** /api/users (self, API tokens, password reset) and the admin user routes the CLI needs. */
import { z } from "zod";
import { route } from "../router.js";
import { Reply } from "../reply.js";
import { userOut } from "./scope.js";
import { listQuery } from "../../../core/query/list.js";
import { textRanker } from "../../../core/search/text-search.js";
import { queryRecord } from "../../../core/recipes/recipe-list.js";
import { userAttributes } from "../../../core/query/attributes.js";
import { NewUserInput } from "../../../core/users/users-service.js";
import { BadRequestError, NotFoundError } from "../../../core/errors.js";

const TokenIn = z.object({ name: z.string().trim().min(1, "This Field is Required").max(200), integrationId: z.string().max(200).default("generic") }).loose();
const AdminUserIn = NewUserInput.extend({ group: z.string().nullish(), household: z.string().nullish() }).loose();

export const userRoutes = [
  route("GET", "/api/users/self", "user", (ctx) => userOut(ctx.larder, ctx.user)),
  route("POST", "/api/users/api-tokens", "user", async (ctx) => {
    const body = TokenIn.parse((await ctx.json()) ?? {});
    const t = await ctx.larder.auth.createApiToken(ctx.user.id, body.name, body.integrationId);
    return Reply.created({ name: t.name, id: t.id, createdAt: t.createdAt, token: t.token });
  }),
  route("DELETE", "/api/users/api-tokens/:id", "user", async (ctx) => {
    const id = Number(ctx.params.id);
    if (!Number.isInteger(id)) throw new NotFoundError();
    const name = await ctx.larder.auth.deleteApiToken(ctx.user.id, id);
    return { tokenDelete: name };
  }),
  route("POST", "/api/users/reset-password", "public", async (ctx) => {
    const body = z.object({ token: z.string(), password: z.string().min(8, "Must Be At Least 8 Characters"), passwordConfirm: z.string().optional() }).loose().parse((await ctx.json()) ?? {});
    if (body.passwordConfirm !== undefined && body.passwordConfirm !== body.password) throw new BadRequestError("passwords must match");
    await ctx.larder.auth.resetPassword(body.token, body.password);
    return null;
  }),
  route("GET", "/api/admin/users", "admin", (ctx) => {
    const byId = new Map(ctx.larder.users.all().map((u) => [u.id, u]));
    const env = listQuery([...byId.values()], queryRecord(ctx.query), userAttributes, {
      route: "/api/admin/users",
      search: textRanker([(u) => u.username, (u) => u.fullName, (u) => u.email]),
      nullsInLinks: "none",
    });
    return { ...env, items: env.items.map((u) => userOut(ctx.larder, ctx.larder.users.get(u.id), false)) };
  }),
  route("POST", "/api/admin/users", "admin", async (ctx) => {
    const body = AdminUserIn.parse((await ctx.json()) ?? {});
    const larder = ctx.larder;
    const groupName = body.group ?? null;
    const g = groupName
      ? larder.groups.all().find((x) => x.doc.data.name.toLowerCase() === groupName.toLowerCase() || x.slug === groupName)
      : (larder.groups.bySlugOrNull(larder.site.data.defaultGroup) ?? larder.groups.all()[0]);
    if (!g) throw new NotFoundError("group not found");
    const hName = body.household ?? null;
    const h = hName
      ? [...g.households.values()].find((x) => x.doc.data.name.toLowerCase() === hName.toLowerCase() || x.slug === hName)
      : [...g.households.values()][0];
    if (!h) throw new NotFoundError("household not found");
    const { password, group: _g, household: _h, ...profile } = body;
    const user = await larder.users.create(profile, { groupId: g.doc.data.id, householdId: h.doc.data.id });
    await larder.auth.setPassword(user.id, password);
    return Reply.created(userOut(larder, user));
  }),
  route("GET", "/api/admin/users/:id", "admin", (ctx) => userOut(ctx.larder, ctx.larder.users.get(ctx.params.id))),
  route("POST", "/api/admin/users/password-reset-token", "admin", async (ctx) => {
    const body = z.object({ email: z.string() }).loose().parse((await ctx.json()) ?? {});
    const user = ctx.larder.users.all().find((u) => u.email.toLowerCase() === body.email.trim().toLowerCase());
    if (!user) throw new NotFoundError("User Not Found");
    return Reply.created({ token: await ctx.larder.auth.createResetToken(user.id) });
  }),
];
