/**
 * The Remix load context: web/server/server.ts passes the one core instance as `context.larder`
 * (ARCHITECTURE §1, §8). Types only: web/app never imports core at runtime.
 */
import type { Larder } from "../../../core/larder.js";

declare module "@remix-run/node" {
  interface AppLoadContext {
    larder: Larder;
  }
  // Typed useLoaderData/useActionData for single fetch (v3_singleFetch is on in vite.config.ts).
  interface Future {
    v3_singleFetch: true;
  }
}

export type { Larder };
