/** Old path /recipe/{slug} (spec §2: the error page rewrites /recipe/ to /r/): to /g/{user's group}/r/{slug}. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirectToGroupRecipe } from "../lib/recipe-redirect.server.js";

export function loader(args: LoaderFunctionArgs) {
  return redirectToGroupRecipe(args);
}
