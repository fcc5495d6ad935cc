/**
 * The React Router load context: web/server/server.ts passes the one core instance as `context.larder`
 * (ARCHITECTURE §1, §8). Types only: web/app never imports core at runtime.
 */
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "react-router";
import type { Larder } from "../../../core/larder.js";

declare module "react-router" {
  interface AppLoadContext {
    larder: Larder;
    /** The client's address (trusted proxies honoured); absent where no socket stands behind a request. */
    clientAddress?: string;
    /** The client build's folder (build/client): the server reads its stylesheets to inline them (0309). */
    clientDir?: string;
  }
}

export type { Larder };

/**
 * Loader and action arguments with the load context typed. React Router 7 types `context` as `any` unless
 * its middleware is on, so routes use these instead of `LoaderFunctionArgs`/`ActionFunctionArgs`.
 */
export type LoaderArgs = LoaderFunctionArgs<AppLoadContext>;
export type ActionArgs = ActionFunctionArgs<AppLoadContext>;
