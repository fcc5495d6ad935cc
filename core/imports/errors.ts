/** Import failures in Mealie's shapes (mealie-api-notes §11). */
import { LarderError } from "../errors.js";

/** No recipe could be read: 400 `{"detail":{"details":"BAD_RECIPE_DATA"}}`; `message` says why, for logs and the CLI. */
export class BadRecipeDataError extends LarderError {
  constructor(reason = "No recipe was found in the page") {
    super(reason, 400, { details: "BAD_RECIPE_DATA" });
  }
}

/** The page did not arrive in time: 408 "Recipe Scraping Timed Out". */
export class ScrapeTimeoutError extends LarderError {
  constructor() {
    super("Recipe Scraping Timed Out", 408);
  }
}
