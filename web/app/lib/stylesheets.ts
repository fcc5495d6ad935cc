/**
 * A stylesheet link of a route's `links` (and the theme's in root.tsx). With a `precedence`, React
 * treats it as a stylesheet resource: it writes it at the top of the page's head, before the module
 * and catalogue preloads. Without one, it stayed where <Links /> renders while React hoisted some
 * seventy preloads above it, and on a slow connection (six connections a host) the stylesheets,
 * which every paint waits for, queued behind the scripts: the recipe page's first paint on "Fast 3G"
 * came at 2.9 s (decision 0201). On a client-side navigation React inserts a route's stylesheet at
 * the end of its precedence and holds the new page until it has loaded.
 */
import type { LinkDescriptor } from "react-router";

/** The app's own stylesheets (Mantine's, then ours, then each route's) in the order they apply. */
export const APP_STYLES = "larder";
/** The theme's colours: after every app stylesheet, whatever a navigation adds later (root.tsx). */
export const THEME_STYLES = "theme";

/** `media`: for a sheet that applies only there (print.css), which then holds no paint on a screen. */
export function stylesheet(href: string, media?: string): LinkDescriptor {
  // React Router's descriptor type has no `precedence` (React 19's); <Links /> passes it on as it is.
  const link = { rel: "stylesheet", href, precedence: APP_STYLES, ...(media ? { media } : {}) };
  return link;
}
