/** Old path /recipe/{slug} (spec §2: the error page rewrites /recipe/ to /r/): to /g/{user's group}/r/{slug}. */
import { redirectToGroupRecipe } from "../lib/recipe-redirect.server.js";
import type { LoaderArgs } from "../lib/context.js";

export function loader(args: LoaderArgs) {
  return redirectToGroupRecipe(args);
}
