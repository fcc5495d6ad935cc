/** The root loader's data for components (types only from root.tsx, so no server code reaches the client). */
import { useRouteLoaderData } from "react-router";
import type { loader } from "../root.js";

export type RootData = Awaited<ReturnType<typeof loader>>;

/** The root data, or undefined when the root loader itself failed (error page). */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData<typeof loader>("root");
}
