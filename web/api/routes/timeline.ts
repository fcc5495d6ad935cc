/** /api/recipes/timeline/events (mealie-api-notes §4.6): a crud route, with an image per event. */
import { route } from "../router.js";
import { Reply } from "../reply.js";
import { readMultipart } from "../multipart.js";
import { crudHeaders } from "./crud-headers.js";
import { listed } from "../listed.js";
import { ValidationError } from "../../../core/errors.js";

const BASE = "/api/recipes/timeline/events";

export const timelineRoutes = [
  route("GET", BASE, "user", (ctx) =>
    crudHeaders(
      ctx,
      listed(ctx, BASE, (q) => ctx.larder.timeline.list(ctx.actor, q)),
    ),
  ),
  route("POST", BASE, "user", async (ctx) =>
    Reply.created(await ctx.larder.timeline.create(ctx.actor, await ctx.json())),
  ),
  route("GET", `${BASE}/:id`, "user", (ctx) =>
    crudHeaders(ctx, ctx.larder.timeline.get(ctx.actor, ctx.params.id)),
  ),
  route("PUT", `${BASE}/:id`, "user", async (ctx) =>
    crudHeaders(ctx, await ctx.larder.timeline.update(ctx.actor, ctx.params.id, await ctx.json())),
  ),
  route("DELETE", `${BASE}/:id`, "user", async (ctx) => ctx.larder.timeline.remove(ctx.actor, ctx.params.id)),
  route("PUT", `${BASE}/:id/image`, "user", async (ctx) => {
    // Look the event up before reading the upload: someone else's event costs no upload buffering.
    ctx.larder.timeline.get(ctx.actor, ctx.params.id);
    const body = await readMultipart(ctx.req, {
      maxFileBytes: ctx.larder.config.maxUploadBytes,
      maxFiles: 1,
    });
    const file = body.file("image");
    if (!file)
      throw new ValidationError([{ loc: ["body", "image"], msg: "Field required", type: "missing" }]);
    return ctx.larder.timeline.setImage(ctx.actor, ctx.params.id, file.data, body.fields.extension ?? "");
  }),
];
