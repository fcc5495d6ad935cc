/** Old short form /r/{slug} (spec §2): to /g/{user's group}/r/{slug}, keeping the query (?edit=true). */
import { redirectToGroupRecipe } from "../lib/recipe-redirect.server.js";
import type { LoaderArgs } from "../lib/context.js";

export function loader(args: LoaderArgs) {
  return redirectToGroupRecipe(args);
}
