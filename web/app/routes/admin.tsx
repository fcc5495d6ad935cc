/**
 * /admin/*: the admin layout (spec §2), for admins only (spec §6 "Admin layout requires authentication
 * plus admin"): a visitor goes to /login and comes back; a signed-in non-admin is sent to / and the
 * refusal is logged as a warning (lib/guards.server.ts).
 */
import { Outlet, redirect, type MetaFunction } from "react-router";
import { AdminLayout } from "../components/admin/AdminLayout.js";
import { requireGuards } from "../lib/guards.server.js";
import { metaT } from "../lib/i18n.js";
import type { LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "admin")("nav.title")} | ${metaT(matches)("appName")}` },
];

export async function loader(args: LoaderArgs) {
  await requireGuards(args, { admin: true });
  const path = new URL(args.request.url).pathname.replace(/\/+$/, "");
  if (path === "/admin") throw redirect("/admin/site-settings");
  return null;
}

export default function Admin() {
  return (
    <AdminLayout>
      <Outlet />
    </AdminLayout>
  );
}
