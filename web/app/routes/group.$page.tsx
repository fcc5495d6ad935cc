/**
 * Old paths (spec §2): /group/mealplan, /members, /notifiers, /webhooks → /household/…, keeping any
 * deeper path and the query. The group's own screens (/group, /group/data/…) are routes of their own
 * (decision 0095); any other /group/… path is a 404.
 */
import { redirect } from "react-router";
import type { LoaderArgs } from "../lib/context.js";

export const MOVED_TO_HOUSEHOLD = ["mealplan", "members", "notifiers", "webhooks"];

export function loader({ request, params }: LoaderArgs): never {
  const page = params.page ?? "";
  if (!MOVED_TO_HOUSEHOLD.includes(page)) throw new Response("Not Found", { status: 404 });
  const url = new URL(request.url);
  throw redirect(url.pathname.replace(/^\/group\//, "/household/") + url.search, 301);
}

export default function Moved() {
  return null;
}
