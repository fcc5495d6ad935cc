/**
 * /api/users (mealie-api-notes §4.3): self, profile updates, password change, sign-up, forgotten
 * passwords, profile images, API tokens, and the admin's /users CRUD. Handlers only translate HTTP;
 * who may do what is decided in core (larder.accounts, larder.registration).
 */
import { z } from "zod";
import { lazySchema } from "../../../core/util/lazy-schema.js";
import { route } from "../router.js";
import { Reply } from "../reply.js";
import { readMultipart } from "../multipart.js";
import type { ApiContext } from "../context.js";
import { listed } from "../listed.js";
import { NotFoundError, ValidationError } from "../../../core/errors.js";

const TokenIn = lazySchema(() =>
  z.object({
    name: z.string().trim().min(1, "This Field is Required").max(200),
    integrationId: z.string().max(200).default("generic"),
  }),
);
/** Profile pictures are small; a phone photo is a few MB. */
const MAX_AVATAR_BYTES = 10 * 1024 * 1024;

/** Images are served with a validator so a client can revalidate instead of downloading again. */
function image(ctx: ApiContext, found: { data: Buffer; etag: string }): Reply {
  if (ctx.req.headers["if-none-match"] === found.etag)
    return new Reply(304, Buffer.alloc(0), { ETag: found.etag }, true);
  return Reply.bytes(found.data, "image/webp", { ETag: found.etag, "Cache-Control": "public, max-age=3600" });
}

const updated = { message: "User updated", error: false };

export const userRoutes = [
  route("GET", "/api/users/self", "user", (ctx) => ctx.larder.directory.userOut(ctx.user)),
  route("PUT", "/api/users/password", "user", async (ctx) => {
    await ctx.larder.accounts.changePassword(ctx.actor, await ctx.json());
    return { message: "Password updated", error: false };
  }),
  route("POST", "/api/users/register", "public", async (ctx) =>
    Reply.created(ctx.larder.directory.userOut(await ctx.larder.registration.register(await ctx.json()))),
  ),
  route("POST", "/api/users/forgot-password", "public", async (ctx) => {
    ctx.larder.registration.forgotPassword(await ctx.json());
    return null;
  }),
  route("POST", "/api/users/reset-password", "public", async (ctx) => {
    await ctx.larder.registration.resetPassword(await ctx.json());
    return null;
  }),

  // ---- API tokens ----
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

  // ---- profile images ----
  route("POST", "/api/users/:id/image", "user", async (ctx) => {
    const body = await readMultipart(ctx.req, {
      maxFileBytes: Math.min(MAX_AVATAR_BYTES, ctx.larder.config.maxUploadBytes),
      maxFiles: 1,
    });
    const file = body.file("profile");
    if (!file)
      throw new ValidationError([
        { loc: ["body", "profile"], msg: "This Field is Required", type: "missing" },
      ]);
    await ctx.larder.accounts.setAvatar(ctx.actor, ctx.params.id, file.data);
    return null;
  }),
  route("GET", "/api/users/:id/image", "user", async (ctx) =>
    image(ctx, await ctx.larder.accounts.avatarFor(ctx.actor, ctx.params.id)),
  ),
  // Public like Mealie's: pages embed it as <img>, and user ids are unguessable.
  route("GET", "/api/media/users/:id/:file", "public", async (ctx) =>
    image(ctx, await ctx.larder.accounts.avatarMedia(ctx.params.id, ctx.params.file)),
  ),

  // ---- a user's profile; the admin's /users CRUD ----
  route("PUT", "/api/users/:id", "user", async (ctx) => {
    await ctx.larder.accounts.update(ctx.actor, ctx.params.id, await ctx.json());
    return updated;
  }),
  route("GET", "/api/users", "admin", (ctx) =>
    listed(ctx, "/api/users", (q) => ctx.larder.accounts.list(ctx.actor, q)),
  ),
  route("POST", "/api/users", "admin", async (ctx) =>
    Reply.created(
      ctx.larder.directory.userOut(await ctx.larder.accounts.create(ctx.actor, await ctx.json())),
    ),
  ),
  route("GET", "/api/users/:id", "admin", (ctx) =>
    ctx.larder.directory.userOut(ctx.larder.accounts.visibleUser(ctx.actor, ctx.params.id)),
  ),
  route("DELETE", "/api/users/:id", "admin", async (ctx) => {
    const user = ctx.larder.accounts.visibleUser(ctx.actor, ctx.params.id);
    const out = ctx.larder.directory.userOut(user, false);
    await ctx.larder.accounts.remove(ctx.actor, user.id);
    return out;
  }),
];
