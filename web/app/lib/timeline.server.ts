/**
 * The recipe timeline's loader and writes: core's timeline service with the signed-in actor (group
 * scope, and "author or admin" for changes, live in core). An event with a photo is created, then its
 * photo stored; a photo core refuses takes the new event away again, so nothing is left half made.
 */
import type { AppLoadContext } from "react-router";
import { diskRefusal, statusOf } from "./errors.server.js";
import { MultipartLimitError, parseMultipartForm } from "./multipart.server.js";
import type { UserActor } from "./session.server.js";
import type { ListQuery } from "../../../core/query/list-query.js";
import { extensionOf, isEventType, type EventType } from "./timeline.js";

export interface TimelineEventView {
  id: string;
  recipe: { id: string; slug: string; name: string; image: string | null };
  eventType: EventType;
  subject: string;
  eventMessage: string;
  hasImage: boolean;
  timestamp: string;
  userName: string;
  /** The viewer wrote it, or is an admin: may edit and delete it. */
  mine: boolean;
}

export type TimelineResult =
  | { intent: string; ok: true; id?: string }
  | {
      intent: string;
      ok: false;
      error: "invalid" | "notFound" | "forbidden" | "tooLarge" | "badImage" | "failed";
      /** Core's message for a write the disk refused. */
      message?: string;
    };

/** A form field; line breaks as typed (form posts send CRLF, which the stored text should not keep). */
const str = (form: FormData, name: string): string => {
  const v = form.get(name);
  return typeof v === "string" ? v.replace(/\r\n?/g, "\n") : "";
};

/** The group's events, or one recipe's (`recipeSlug`): all of them (spec §9: perPage -1). */
export function loadTimeline(context: AppLoadContext, actor: UserActor, recipeSlug: string | null) {
  const { larder } = context;
  const recipe = recipeSlug ? larder.recipes.get(actor, recipeSlug) : null;
  const query: ListQuery = {
    perPage: -1,
    orderBy: "timestamp",
    orderDirection: "asc",
    queryFilter: recipe ? `recipeId="${recipe.id}"` : null,
  };
  const names = new Map<string, string>();
  const nameOf = (id: string) => {
    if (!names.has(id)) {
      const u = larder.users.byId(id);
      names.set(id, u ? u.fullName || u.username : "");
    }
    return names.get(id) ?? "";
  };
  const events: TimelineEventView[] = [];
  for (const e of larder.timeline.list(actor, query).items) {
    const entry = larder.recipes.entryById(e.recipeId);
    if (!entry) continue;
    const r = larder.recipes.summaryOf(entry);
    events.push({
      id: e.id,
      recipe: { id: r.id, slug: r.slug, name: r.name, image: r.image },
      eventType: isEventType(e.eventType) ? e.eventType : "info",
      subject: e.subject,
      eventMessage: e.eventMessage ?? "",
      hasImage: e.image === "has image",
      timestamp: e.timestamp,
      userName: nameOf(e.userId),
      mine: e.userId === actor.user.id || actor.user.admin,
    });
  }
  return { recipe: recipe ? { id: recipe.id, slug: recipe.slug, name: recipe.name } : null, events };
}

async function readForm(request: Request, context: AppLoadContext): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.startsWith("multipart/form-data")) return request.formData();
  return parseMultipartForm(request, { maxFileBytes: context.larder.images.maxBytes, maxFiles: 1 });
}

function photoOf(form: FormData): File | null {
  const f = form.get("image");
  return f && typeof f !== "string" && f.size > 0 ? f : null;
}

/** A write the disk refused, with core's message; null for any other error. */
function refusal(context: AppLoadContext, intent: string, e: unknown): TimelineResult | null {
  const message = diskRefusal(context.larder.log, `timeline: ${intent}`, e);
  return message ? { intent, ok: false, error: "failed", message } : null;
}

function failure(intent: string, e: unknown): TimelineResult {
  const status = statusOf(e);
  if (e instanceof MultipartLimitError || status === 413) return { intent, ok: false, error: "tooLarge" };
  const zod = e instanceof Error && e.name === "ZodError";
  const error =
    status === 404
      ? "notFound"
      : status === 403
        ? "forbidden"
        : status === 400 || status === 422 || zod
          ? "invalid"
          : "failed";
  return { intent, ok: false, error };
}

export async function runTimelineIntent(
  request: Request,
  context: AppLoadContext,
  actor: UserActor,
): Promise<TimelineResult> {
  let intent = "";
  try {
    const form = await readForm(request, context);
    intent = str(form, "intent");
    const timeline = context.larder.timeline;
    const photo = photoOf(form);
    const storePhoto = async (id: string) => {
      if (!photo) return;
      await timeline.setImage(actor, id, Buffer.from(await photo.arrayBuffer()), extensionOf(photo.name));
    };
    switch (intent) {
      case "create": {
        const type = str(form, "eventType");
        const timestamp = str(form, "timestamp");
        const created = await timeline.create(actor, {
          recipeId: str(form, "recipeId"),
          subject: str(form, "subject").trim(),
          eventType: isEventType(type) ? type : "info",
          eventMessage: str(form, "eventMessage"),
          ...(timestamp ? { timestamp } : {}),
        });
        try {
          await storePhoto(created.id);
        } catch (e) {
          await timeline.remove(actor, created.id).catch(() => undefined);
          return statusOf(e) === 400 || statusOf(e) === 422
            ? { intent, ok: false, error: "badImage" }
            : (refusal(context, intent, e) ?? failure(intent, e));
        }
        return { intent, ok: true, id: created.id };
      }
      case "update": {
        const id = str(form, "id");
        await timeline.update(actor, id, {
          subject: str(form, "subject").trim(),
          eventMessage: str(form, "eventMessage"),
        });
        try {
          await storePhoto(id);
        } catch (e) {
          return statusOf(e) === 400 || statusOf(e) === 422
            ? { intent, ok: false, error: "badImage" }
            : (refusal(context, intent, e) ?? failure(intent, e));
        }
        return { intent, ok: true, id };
      }
      case "delete":
        return { intent, ok: true, id: (await timeline.remove(actor, str(form, "id"))).id };
      default:
        return { intent, ok: false, error: "invalid" };
    }
  } catch (e) {
    const refused = refusal(context, intent, e);
    if (refused) return refused;
    if (
      statusOf(e) === null &&
      !(e instanceof MultipartLimitError) &&
      !(e instanceof Error && e.name === "ZodError")
    )
      throw e;
    return failure(intent, e);
  }
}
