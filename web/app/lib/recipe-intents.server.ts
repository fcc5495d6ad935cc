/**
 * The recipe page's writes (one route action, an `intent` field picks the operation). Each calls core
 * with the signed-in actor; core checks permissions and scope, so nothing here trusts the page's own
 * idea of what the user may do. Results are codes, never English: the page turns them into toasts.
 */
import type { AppLoadContext } from "react-router";
import { diskRefusal, statusOf } from "./errors.server.js";
import { MultipartLimitError, parseMultipartForm } from "./multipart.server.js";
import { openedCopy } from "./opened-copy.server.js";
import { requireUserActor, type UserActor } from "./session.server.js";
import type { IntentError, IntentResult } from "./recipe-types.js";

export type { IntentResult };

function failure(intent: string, e: unknown): IntentResult {
  const status = statusOf(e);
  const message = e instanceof Error ? e.message : undefined;
  const error: IntentError =
    status === 409
      ? "conflict"
      : status === 403
        ? "forbidden"
        : status === 404
          ? "notFound"
          : status === 413
            ? "tooLarge"
            : status === 400 || status === 422 || (e instanceof Error && e.name === "ZodError")
              ? "invalid"
              : "failed";
  if (error === "failed") return { intent, ok: false, error };
  return { intent, ok: false, error, message };
}

const str = (form: FormData, name: string): string => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};

/** Multipart (the image upload) is read with a size cap; everything else is a plain form post. */
async function readForm(request: Request, context: AppLoadContext): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.startsWith("multipart/form-data")) return request.formData();
  return parseMultipartForm(request, { maxFileBytes: context.larder.images.maxBytes });
}

type Handler = (a: {
  actor: UserActor;
  context: AppLoadContext;
  slug: string;
  form: FormData;
}) => Promise<Omit<Extract<IntentResult, { ok: true }>, "intent" | "ok">>;

const HANDLERS: Record<string, Handler> = {
  async save({ actor, context, slug, form }) {
    const body: unknown = JSON.parse(str(form, "recipe"));
    if (!body || typeof body !== "object" || Array.isArray(body))
      throw Object.assign(new Error("not an object"), { status: 422 });
    // The copy the editor opened, so a change made meanwhile (another person, a script) is kept.
    const base = openedCopy(form);
    const copy = base ? { base, mineWins: form.get("mineWins") === "1" } : undefined;
    // Found by the copy's id: renamed by someone else meanwhile, the recipe is no longer at `slug`.
    const target = typeof copy?.base.id === "string" ? copy.base.id : slug;
    const saved = await context.larder.recipes.update(actor, target, body, "put", copy);
    return { slug: saved.slug };
  },
  async image({ actor, context, slug, form }) {
    const file = form.get("image");
    if (!file || typeof file === "string") throw Object.assign(new Error("no image"), { status: 422 });
    await context.larder.images.setRecipeImage(actor, slug, Buffer.from(await file.arrayBuffer()));
    return {};
  },
  async delete({ actor, context, slug }) {
    await context.larder.recipes.remove(actor, slug);
    return {};
  },
  async duplicate({ actor, context, slug, form }) {
    const copy = await context.larder.recipes.duplicate(actor, slug, str(form, "name").trim() || null);
    return { slug: copy.slug };
  },
  async rate({ actor, context, slug, form }) {
    const rating = Number(str(form, "rating"));
    await context.larder.ratings.set(actor, actor.user.id, slug, {
      rating: Number.isFinite(rating) ? rating : null,
    });
    return {};
  },
  async favorite({ actor, context, slug, form }) {
    await context.larder.ratings.set(actor, actor.user.id, slug, {
      isFavorite: str(form, "value") === "true",
    });
    return {};
  },
  async commentCreate({ actor, context, slug, form }) {
    const recipe = context.larder.recipes.get(actor, slug);
    await context.larder.comments.create(actor, { recipeId: recipe.id, text: str(form, "text") });
    return {};
  },
  async commentUpdate({ actor, context, form }) {
    await context.larder.comments.update(actor, str(form, "id"), { text: str(form, "text") });
    return {};
  },
  async commentDelete({ actor, context, form }) {
    await context.larder.comments.remove(actor, str(form, "id"));
    return {};
  },
  async shareCreate({ actor, context, slug, form }) {
    const recipe = context.larder.recipes.get(actor, slug);
    const expiresAt = str(form, "expiresAt") || undefined;
    const t = await context.larder.shares.create(actor, { recipeId: recipe.id, expiresAt });
    return { share: { id: t.id, expiresAt: t.expiresAt, createdAt: t.createdAt } };
  },
  async shareDelete({ actor, context, form }) {
    await context.larder.shares.remove(actor, str(form, "id"));
    return {};
  },
  async zip({ actor, context, slug }) {
    return { token: (await context.larder.exports.recipeToken(actor, slug)).token };
  },
  async triggerAction({ actor, context, slug, form }) {
    const scale = Number(str(form, "scale"));
    const { delivery } = context.larder.recipeActions.trigger(actor, str(form, "id"), slug, {
      recipeScale: Number.isFinite(scale) && scale > 0 ? scale : 1,
    });
    // Wait for the hook's answer, so the toast says whether the message really went out.
    return { sent: await delivery };
  },
};

/** Runs one recipe-page intent for the signed-in user. */
export async function runRecipeIntent(
  request: Request,
  context: AppLoadContext,
  slug: string,
): Promise<IntentResult> {
  const actor = await requireUserActor(request, context);
  let form: FormData;
  try {
    form = await readForm(request, context);
  } catch (e) {
    return { intent: "image", ok: false, error: e instanceof MultipartLimitError ? "tooLarge" : "invalid" };
  }
  const intent = str(form, "intent");
  const handler = Object.hasOwn(HANDLERS, intent) ? HANDLERS[intent] : undefined;
  if (!handler) return { intent, ok: false, error: "invalid" };
  try {
    return { intent, ok: true, ...(await handler({ actor, context, slug, form })) };
  } catch (e) {
    const refused = diskRefusal(context.larder.log, `recipe ${intent}`, e);
    if (refused) return { intent, ok: false, error: "failed", message: refused };
    if (
      statusOf(e) === null &&
      !(e instanceof SyntaxError) &&
      !(e instanceof Error && e.name === "ZodError")
    ) {
      context.larder.log.error(`recipe ${intent} failed`, e);
    }
    return failure(intent, e instanceof SyntaxError ? Object.assign(e, { status: 422 }) : e);
  }
}
