/** /api/media/recipes/{id}/images/{name}: public, like Mealie (image URLs are embedded in pages). */
import { route } from "../router.js";
import { Reply } from "../reply.js";
import { NotFoundError } from "../../../core/errors.js";
import { isUuid } from "../../../core/util/ids.js";

export const mediaRoutes = [
  route("GET", "/api/media/recipes/:id/images/:name", "public", async (ctx) => {
    if (!isUuid(ctx.params.id)) throw new NotFoundError("File not found");
    const { data, etag } = await ctx.larder.images.get(ctx.params.id, ctx.params.name);
    if (ctx.req.headers["if-none-match"] === etag)
      return new Reply(304, Buffer.alloc(0), { ETag: etag }, true);
    return Reply.bytes(data, "image/webp", { ETag: etag, "Cache-Control": "public, max-age=86400" });
  }),
];
