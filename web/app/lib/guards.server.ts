/**
 * Route guards of spec §6 for loaders: a route names the guards it needs; a viewer who fails one is sent
 * to / and the reason is logged as a warning (not an error: it is a user following a stale link).
 *
 *   const actor = await requireGuards(args, { canManage: true, groupMatch: true });
 */
import { redirect } from "react-router";
import { checkGuards, type RouteGuards } from "./pure-core.js";
import { groupSlugOf, requireUserActor, type UserActor } from "./session.server.js";
import type { LoaderArgs } from "./context.js";

export type { RouteGuards };

/** The signed-in user when every guard passes; otherwise a redirect to /. */
export async function requireGuards(
  { request, context, params }: Pick<LoaderArgs, "request" | "context" | "params">,
  guards: RouteGuards,
): Promise<UserActor> {
  // Signed out: to the login page (it comes back here), rather than to / which would lose the way back.
  const actor = await requireUserActor(request, context);
  const user = { ...actor.user, groupSlug: groupSlugOf(context, actor.user) ?? undefined };
  const decision = checkGuards(user, guards, { groupSlug: params.groupSlug ?? null });
  if (!decision.ok) {
    context.larder.log.warn(
      `route guard: ${new URL(request.url).pathname} refused (${decision.reason}); redirecting to /`,
    );
    throw redirect("/");
  }
  return actor;
}
