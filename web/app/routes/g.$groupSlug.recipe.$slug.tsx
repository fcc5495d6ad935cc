/** /g/{groupSlug}/recipe/{slug}: the old long form; spec §2 rewrites /recipe/ to /r/ (query kept). */
import { redirect } from "react-router";
import type { LoaderArgs } from "../lib/context.js";

export function loader({ request, params }: LoaderArgs) {
  const search = new URL(request.url).search;
  const group = encodeURIComponent(params.groupSlug ?? "");
  throw redirect(`/g/${group}/r/${encodeURIComponent(params.slug ?? "")}${search}`, 301);
}
export default function Moved() {
  return null;
}
