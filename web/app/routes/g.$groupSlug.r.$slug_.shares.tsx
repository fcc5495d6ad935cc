/**
 * /g/:groupSlug/r/:slug/shares: the recipe's share links as data, for the share dialog (spec §4: the list
 * loads when the dialog opens). Members of the recipe's group only, like every share operation.
 */
import { coreCall } from "../lib/errors.server.js";
import { requireGroupMember } from "../lib/session.server.js";
import type { ShareRow } from "../lib/recipe-types.js";
import type { LoaderArgs } from "../lib/context.js";

export async function loader({ request, context, params }: LoaderArgs): Promise<{ shares: ShareRow[] }> {
  const { actor } = await requireGroupMember(request, context, params.groupSlug);
  const recipe = await coreCall(() => context.larder.recipes.get(actor, params.slug ?? ""));
  const shares = await context.larder.shares.list(actor, recipe.id);
  return { shares: shares.map(({ id, expiresAt, createdAt }) => ({ id, expiresAt, createdAt })) };
}
