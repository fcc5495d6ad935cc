/**
 * Importing recipes from the create screens: one web page by URL (the URL screen, one row of a bulk
 * import), the scrape test's preview, and errors worded for people. Everything goes through
 * `larder.imports`, the same path as POST /api/recipes/create/url.
 */
import type { AppLoadContext } from "react-router";
import { diskRefusal, statusOf } from "./errors.server.js";
import type { UserActor } from "./session.server.js";

import type { ImportProblem } from "./import-problem.js";

export type { ImportProblem };

export type ImportAnswer =
  { ok: true; slug: string; name: string } | { ok: false; error: ImportProblem; message: string | null };

/** A core failure as the screen says it; 5xx are logged and named only as "failed". */
export function importProblem(context: AppLoadContext, what: string, e: unknown): ImportAnswer {
  const status = statusOf(e);
  // The fetcher's own failures (core/net/errors.ts), by their code: the page or the site, in words. A
  // page's error status is a 400 BAD_RECIPE_DATA on the API (decision 0270), so it is read by its code
  // first: "the page answered 404" says more than "no recipe".
  const fetch = e as { code?: unknown; upstreamStatus?: unknown; contentType?: unknown };
  if (fetch.code === "http_status")
    return { ok: false, error: "pageStatus", message: String(fetch.upstreamStatus) };
  // Mealie's "no recipe" answer: 400 with the detail {"details": "BAD_RECIPE_DATA"}.
  if ((e as { detail?: { details?: unknown } }).detail?.details === "BAD_RECIPE_DATA")
    return { ok: false, error: "noRecipe", message: null };
  if (status === 408) return { ok: false, error: "timeout", message: null };
  if (fetch.code === "fetch_failed") return { ok: false, error: "unreachable", message: null };
  if (fetch.code === "bad_content_type")
    return { ok: false, error: "notAPage", message: String(fetch.contentType ?? "?") };
  // The fetcher's and importers' messages are written for people and never name internal addresses.
  if (status !== null && status < 500) return { ok: false, error: "other", message: (e as Error).message };
  const refused = diskRefusal(context.larder.log, `importing ${what}`, e);
  if (refused) return { ok: false, error: "other", message: refused };
  context.larder.log.warn(`importing ${what} failed: ${e instanceof Error ? e.message : String(e)}`);
  return { ok: false, error: "other", message: null };
}

export async function importUrl(
  context: AppLoadContext,
  actor: UserActor,
  url: string,
  tags: boolean,
  source = "ui",
): Promise<ImportAnswer> {
  if (!url.trim()) return { ok: false, error: "required", message: null };
  try {
    const r = await context.larder.imports.importOne(
      actor,
      { type: "url", url: url.trim() },
      { tags, categories: false, source },
    );
    return { ok: true, slug: r.slug, name: r.name };
  } catch (e) {
    return importProblem(context, url, e);
  }
}

/** What the scrape test shows: the recipe the page holds, nothing written. */
export interface ScrapePreview {
  name: string;
  description: string;
  ingredients: string[];
  steps: number;
  keywords: string[];
  totalTime: string | null;
}

const strings = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.map((x) => (typeof x === "string" ? x : "")).filter(Boolean)
    : typeof v === "string" && v
      ? v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : [];

/** The preview of a URL's recipe, or, with no URL, of the pasted page or JSON. */
export async function testScrape(
  context: AppLoadContext,
  actor: UserActor,
  url: string,
  pasted = "",
): Promise<{ ok: true; preview: ScrapePreview } | Extract<ImportAnswer, { ok: false }>> {
  if (!url.trim() && !pasted.trim()) return { ok: false, error: "required", message: null };
  try {
    // Broken JSON is core's BAD_RECIPE_DATA, which importProblem says as "no recipe".
    const input = url.trim()
      ? { type: "url" as const, url: url.trim() }
      : context.larder.imports.pasted(pasted);
    const view = (await context.larder.imports.inspect(actor, input)) as Record<string, unknown>;
    return {
      ok: true,
      preview: {
        name: typeof view.name === "string" ? view.name : "",
        description: typeof view.description === "string" ? view.description : "",
        ingredients: strings(view.recipeIngredient).slice(0, 60),
        steps: Array.isArray(view.recipeInstructions) ? view.recipeInstructions.length : 0,
        keywords: strings(view.keywords).slice(0, 30),
        totalTime: typeof view.totalTime === "string" ? view.totalTime : null,
      },
    };
  } catch (e) {
    const p = importProblem(context, url.trim() || "pasted data", e);
    return p.ok ? { ok: false, error: "other", message: null } : p;
  }
}
