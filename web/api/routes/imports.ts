/**
 * Recipe creation from outside data (mealie-api-notes §11, §5.6): a page by URL (one, streamed, or in
 * bulk), pasted HTML or JSON, a recipe zip, photos; the scrape test and the OpenAI debug route. Each
 * handler only translates HTTP to `larder.imports` and back.
 */
import { z } from "zod";
import { lazySchema } from "../../../core/util/lazy-schema.js";
import { route } from "../router.js";
import { Reply } from "../reply.js";
import type { ApiContext } from "../context.js";
import { readMultipart } from "../multipart.js";
import { LarderError, ValidationError } from "../../../core/errors.js";
import type { ImportInput } from "../../../core/plugins/kinds.js";
import { BadRecipeDataError } from "../../../core/imports/errors.js";
import { htmlOrJsonInput } from "../../../core/imports/html-or-json.js";

const flag = lazySchema(() =>
  z.union([z.boolean(), z.string().transform((v) => /^(1|true|yes|on)$/i.test(v))]).nullish(),
);
const Organizer = lazySchema(() => z.union([z.string(), z.looseObject({ name: z.string().nullish() })]));

const ScrapeRecipe = lazySchema(() =>
  z.looseObject({
    url: z.string({ error: "Field required" }),
    includeTags: flag,
    include_tags: flag,
    includeCategories: flag,
    include_categories: flag,
  }),
);
const ScrapeRecipeData = lazySchema(() =>
  z.looseObject({
    data: z.string({ error: "Field required" }),
    url: z.string().nullish(),
    includeTags: flag,
    include_tags: flag,
    includeCategories: flag,
    include_categories: flag,
  }),
);
const Bulk = lazySchema(() =>
  z.looseObject({
    imports: z.array(
      z.looseObject({
        url: z.string(),
        tags: z.array(Organizer).nullish(),
        categories: z.array(Organizer).nullish(),
      }),
    ),
  }),
);
const ScrapeTest = lazySchema(() =>
  z.looseObject({ url: z.string({ error: "Field required" }), useOpenAI: flag }),
);

type Flags = {
  includeTags?: boolean | null;
  include_tags?: boolean | null;
  includeCategories?: boolean | null;
  include_categories?: boolean | null;
};
/** Mealie defaults both to false; the snake_case spelling of older clients is accepted too. */
function includeOpts(b: Flags): { tags: boolean; categories: boolean } {
  return {
    tags: Boolean(b.includeTags ?? b.include_tags ?? false),
    categories: Boolean(b.includeCategories ?? b.include_categories ?? false),
  };
}

/**
 * The streaming variants: server-sent events `progress` (`{"message"}`), then `done` with the slug, or
 * `error` with the error's `detail` and `status`. A failure after the stream began cannot change the
 * HTTP status any more, so it travels in the event.
 */
async function stream(
  ctx: ApiContext,
  input: ImportInput,
  opts: { tags: boolean; categories: boolean },
): Promise<null> {
  const res = ctx.res;
  res.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-store",
    Connection: "keep-alive",
    "X-Accel-Buffering": "no",
  });
  const send = (event: string, data: unknown) =>
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const abort = new AbortController();
  const onClose = () => abort.abort();
  res.on("close", onClose);
  try {
    send("progress", { message: input.type === "url" ? "Fetching the page" : "Reading the recipe" });
    const recipes = await ctx.larder.imports.read(ctx.actor, input, { signal: abort.signal });
    send("progress", { message: "Saving the recipe" });
    const r = await ctx.larder.imports.create(ctx.actor, recipes[0], {
      ...opts,
      source: `${input.type}/stream`,
      signal: abort.signal,
    });
    send("done", r.slug);
  } catch (e) {
    const status = e instanceof LarderError ? e.status : 500;
    const detail =
      e instanceof LarderError
        ? e.body().detail
        : { message: "Internal error", error: true, exception: null };
    send("error", { status, detail });
  } finally {
    res.off("close", onClose);
    res.end();
  }
  return null;
}

export const importRoutes = [
  route("POST", "/api/recipes/create/url", "user", async (ctx) => {
    const body = ScrapeRecipe.parse((await ctx.json()) ?? {});
    const r = await ctx.larder.imports.importOne(
      ctx.actor,
      { type: "url", url: body.url },
      { ...includeOpts(body), source: "url" },
    );
    return Reply.created(r.slug);
  }),
  route("POST", "/api/recipes/create/url/stream", "user", async (ctx) => {
    const body = ScrapeRecipe.parse((await ctx.json()) ?? {});
    return stream(ctx, { type: "url", url: body.url }, includeOpts(body));
  }),
  route("POST", "/api/recipes/create/url/bulk", "user", async (ctx) => {
    const body = Bulk.parse((await ctx.json()) ?? {});
    // As in Mealie, a bulk import keeps no keywords of its own: only the tags and categories given per URL.
    const started = await ctx.larder.imports.startBulk(ctx.actor, body.imports, {
      tags: false,
      categories: false,
    });
    return Reply.json(202, started);
  }),
  route("POST", "/api/recipes/create/html-or-json", "user", async (ctx) => {
    const body = ScrapeRecipeData.parse((await ctx.json()) ?? {});
    const r = await ctx.larder.imports.importOne(ctx.actor, htmlOrJsonInput(body.data, body.url), {
      ...includeOpts(body),
      source: "html-or-json",
    });
    return Reply.created(r.slug);
  }),
  route("POST", "/api/recipes/create/html-or-json/stream", "user", async (ctx) => {
    const body = ScrapeRecipeData.parse((await ctx.json()) ?? {});
    return stream(ctx, htmlOrJsonInput(body.data, body.url), includeOpts(body));
  }),
  route("POST", "/api/recipes/test-scrape-url", "user", async (ctx) => {
    const body = ScrapeTest.parse((await ctx.json()) ?? {});
    try {
      return await ctx.larder.imports.inspect(ctx.actor, { type: "url", url: body.url });
    } catch (e) {
      // Mealie answers 200 with this sentence when the page holds no recipe.
      if (e instanceof BadRecipeDataError) return "recipe_scrapers was unable to scrape this URL";
      throw e;
    }
  }),
  route("POST", "/api/recipes/create/zip", "user", async (ctx) => {
    const body = await readMultipart(ctx.req, {
      maxFileBytes: ctx.larder.config.maxUploadBytes,
      maxFiles: 1,
    });
    const file = body.file("archive");
    if (!file)
      throw new ValidationError([{ loc: ["body", "archive"], msg: "Field required", type: "missing" }]);
    const r = await ctx.larder.imports.importZip(ctx.actor, file.data);
    return Reply.created(r.slug);
  }),
  route("POST", "/api/recipes/create/image", "user", async (ctx) => {
    const body = await readMultipart(ctx.req, {
      maxFileBytes: ctx.larder.config.maxUploadBytes,
      maxFiles: 10,
    });
    const photos = body.files.filter((f) => f.field === "images" || f.field === "images[]");
    if (photos.length === 0)
      throw new ValidationError([{ loc: ["body", "images"], msg: "Field required", type: "missing" }]);
    const r = await ctx.larder.imports.importImages(ctx.actor, photos, {
      translateLanguage: ctx.query.get("translateLanguage"),
    });
    return Reply.created(r.slug);
  }),
  route("POST", "/api/admin/debug/openai", "admin", async (ctx) => debugOpenAI(ctx)),
  route("POST", "/api/admin/debug/openai/:providerId", "admin", async (ctx) => debugOpenAI(ctx)),
];

/** The provider named in the path, else the admin's group default provider, else the `OPENAI_*` settings. */
async function debugOpenAI(ctx: ApiContext): Promise<unknown> {
  const isMultipart = String(ctx.req.headers["content-type"] ?? "")
    .toLowerCase()
    .startsWith("multipart/form-data");
  const body = isMultipart
    ? await readMultipart(ctx.req, { maxFileBytes: ctx.larder.config.maxUploadBytes, maxFiles: 1 })
    : null;
  return ctx.larder.imports.aiDebug(ctx.actor, body?.file("image")?.data ?? null, ctx.params.providerId);
}
