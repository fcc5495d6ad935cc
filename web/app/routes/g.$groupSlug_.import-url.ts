/**
 * POST /g/{groupSlug}/import-url (form: url, includeTags): imports one page and answers JSON
 * `{ok, slug, name}` or `{ok: false, error, message}`. The URL screen's bulk import sends each of its
 * URLs here on its own, so every URL has its own live status.
 */
import { importUrl } from "../lib/imports.server.js";
import { requireGroupMember } from "../lib/session.server.js";
import type { ActionArgs } from "../lib/context.js";

export async function action({ request, context, params }: ActionArgs) {
  const { actor } = await requireGroupMember(request, context, params.groupSlug);
  const form = await request.formData();
  const url = String(form.get("url") ?? "").trim();
  const answer = await importUrl(context, actor, url, form.get("includeTags") === "on", "ui/bulk");
  return Response.json(answer, { headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  throw new Response("Method Not Allowed", { status: 405 });
}
