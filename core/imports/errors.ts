/** Import failures in Mealie's shapes (mealie-api-notes §11). */
import { LarderError } from "../errors.js";

/** No recipe could be read: 400 `{"detail":{"details":"BAD_RECIPE_DATA"}}`; `message` says why, for logs and the CLI. */
export class BadRecipeDataError extends LarderError {
  constructor(
    reason = "No recipe was found in the page",
    detail: { details: string; message?: string } = BAD,
  ) {
    super(reason, 400, detail);
  }
}
const BAD = { details: "BAD_RECIPE_DATA" };

/**
 * The site answered the page with an error status (403, 404, 410, 5xx): there is no recipe to read, so
 * Mealie's 400 BAD_RECIPE_DATA, not a 502 a client would retry (decision 0270). The detail and `code`/
 * `upstreamStatus` (the fetcher's names, which the web UI reads) still say which status it was.
 */
export class PageStatusError extends BadRecipeDataError {
  readonly code = "http_status";
  constructor(
    readonly url: string,
    readonly upstreamStatus: number,
  ) {
    const message = `The remote server answered ${upstreamStatus}`;
    super(message, { ...BAD, message });
  }
}

/** The page did not arrive in time: 408 "Recipe Scraping Timed Out". */
export class ScrapeTimeoutError extends LarderError {
  constructor() {
    super("Recipe Scraping Timed Out", 408);
  }
}
