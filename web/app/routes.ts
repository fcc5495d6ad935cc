/**
 * The route table: the file names under routes/ keep the flat-routes convention they had under Remix 2
 * (`g.$groupSlug.r.$slug.tsx`, `[_]search.tsx`, …), so @react-router/fs-routes reads them as they are.
 */
import { type RouteConfig } from "@react-router/dev/routes";
import { flatRoutes } from "@react-router/fs-routes";

export default flatRoutes() satisfies RouteConfig;
