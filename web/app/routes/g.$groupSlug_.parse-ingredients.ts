/**
 * POST /g/{groupSlug}/parse-ingredients (form: parser = nlp | brute | openai, lines = JSON list):
 * the editor's "parse ingredients". Answers `{ok, results}` with each line's amount, unit, food and note
 * (units and foods the group does not have yet come without an id; saving the recipe adds them), or
 * `{ok: false, message}`. The same parsers as POST /api/parser/ingredients.
 */
import { requireGroupMember } from "../lib/session.server.js";
import { problemText } from "../lib/use-intent.js";
import type { ActionArgs } from "../lib/context.js";

export async function action({ request, context, params }: ActionArgs) {
  const { actor } = await requireGroupMember(request, context, params.groupSlug);
  const form = await request.formData();
  let lines: unknown;
  try {
    lines = JSON.parse(String(form.get("lines") ?? "[]"));
  } catch {
    lines = null;
  }
  if (!Array.isArray(lines) || lines.some((l) => typeof l !== "string"))
    return Response.json({ ok: false, message: "lines must be a list of text" }, { status: 400 });
  try {
    const parsed = await context.larder.parsers.parseMany(actor, {
      parser: String(form.get("parser") ?? "nlp"),
      ingredients: lines,
    });
    const results = parsed.map((p) => ({
      quantity: p.ingredient.quantity,
      unit: p.ingredient.unit,
      food: p.ingredient.food,
      note: p.ingredient.note,
    }));
    return Response.json({ ok: true, results }, { headers: { "Cache-Control": "no-store" } });
  } catch (e) {
    const status = (e as { status?: number }).status ?? 500;
    if (status >= 500) context.larder.log.warn("parsing ingredients failed", e);
    return Response.json(
      { ok: false, message: status >= 500 ? null : problemText(e) },
      { status: status >= 500 ? 502 : status },
    );
  }
}

export function loader() {
  throw new Response("Method Not Allowed", { status: 405 });
}
