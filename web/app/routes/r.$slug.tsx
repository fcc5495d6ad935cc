/** Old short form /r/{slug} (spec §2): to /g/{user's group}/r/{slug}, keeping the query (?edit=true). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirectToGroupRecipe } from "../lib/recipe-redirect.server.js";

export function loader(args: LoaderFunctionArgs) {
  return redirectToGroupRecipe(args);
}
