/**
 * Recipe media (mealie-api-notes §4.6, §4.15): image upload, image from a URL, image delete, asset
 * upload, and the public media reads for assets, timeline images and the docker validation file.
 * Media reads are public like Mealie's (image and asset URLs are embedded in pages and shares).
 */
import { z } from "zod";
import { route } from "../router.js";
import { Reply } from "../reply.js";
import type { ApiContext } from "../context.js";
import { readMultipart } from "../multipart.js";
import { NotFoundError, ValidationError } from "../../../core/errors.js";
import { isUuid } from "../../../core/util/ids.js";
import { dockerValidationText } from "../../../core/media/docker-validation.js";
import { attachment } from "../../server/edge.js";

/** Every media answer: never sniffed into something runnable, never allowed to run script. */
const MEDIA_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; sandbox",
};

function required(ctx: { fields: Record<string, string> }, name: string): string {
  const v = ctx.fields[name];
  if (v === undefined)
    throw new ValidationError([{ loc: ["body", name], msg: "Field required", type: "missing" }]);
  return v;
}

function imageReply(ctx: ApiContext, img: { data: Buffer; etag: string }): Reply {
  const headers = { ETag: img.etag, "Cache-Control": "public, max-age=86400", ...MEDIA_HEADERS };
  if (ctx.req.headers["if-none-match"] === img.etag) return new Reply(304, Buffer.alloc(0), headers, true);
  return Reply.bytes(img.data, "image/webp", headers);
}

export const recipeMediaRoutes = [
  route("PUT", "/api/recipes/:slug/image", "user", async (ctx) => {
    const body = await readMultipart(ctx.req, { maxFileBytes: ctx.larder.images.maxBytes, maxFiles: 1 });
    const file = body.file("image");
    if (!file)
      throw new ValidationError([{ loc: ["body", "image"], msg: "Field required", type: "missing" }]);
    const image = await ctx.larder.images.setRecipeImage(ctx.actor, ctx.params.slug, file.data);
    return { image };
  }),
  route("POST", "/api/recipes/:slug/image", "user", async (ctx) => {
    const body = z.looseObject({ url: z.string().min(1) }).parse((await ctx.json()) ?? {});
    await ctx.larder.images.setRecipeImageFromUrl(ctx.actor, ctx.params.slug, body.url);
    return null;
  }),
  route("DELETE", "/api/recipes/:slug/image", "user", async (ctx) => {
    await ctx.larder.images.removeRecipeImage(ctx.actor, ctx.params.slug);
    return null;
  }),
  route("POST", "/api/recipes/:slug/assets", "user", async (ctx) => {
    const body = await readMultipart(ctx.req, {
      maxFileBytes: ctx.larder.config.maxUploadBytes,
      maxFiles: 1,
    });
    const file = body.file("file");
    if (!file) throw new ValidationError([{ loc: ["body", "file"], msg: "Field required", type: "missing" }]);
    return ctx.larder.assets.upload(ctx.actor, ctx.params.slug, {
      name: required(body, "name"),
      icon: required(body, "icon"),
      extension: required(body, "extension"),
      data: file.data,
    });
  }),
  route("GET", "/api/media/recipes/:id/assets/:file", "public", async (ctx) => {
    const asset = await ctx.larder.assets.read(ctx.params.id, ctx.params.file);
    const disposition = attachment(ctx.params.file, asset.inline ? "inline" : "attachment");
    return Reply.bytes(asset.data, asset.contentType, {
      "Content-Disposition": disposition,
      "Cache-Control": "public, max-age=3600",
      ...MEDIA_HEADERS,
    });
  }),
  route("GET", "/api/media/recipes/:id/images/timeline/:eventId/:file", "public", async (ctx) => {
    if (!isUuid(ctx.params.id)) throw new NotFoundError("File not found");
    return imageReply(
      ctx,
      await ctx.larder.images.getTimeline(ctx.params.id, ctx.params.eventId, ctx.params.file),
    );
  }),
  route("GET", "/api/media/docker/validate.txt", "public", async (ctx) => {
    const text = await dockerValidationText(ctx.larder.folder);
    return Reply.bytes(Buffer.from(text), "text/plain; charset=utf-8", {
      "Cache-Control": "no-store",
      ...MEDIA_HEADERS,
    });
  }),
];
