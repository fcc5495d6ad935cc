/** GET /theme.css?v=<hash>: Mantine's CSS variables for the configured theme (lib/theme-css.server.ts). */
import { themeOf } from "../lib/app-info.server.js";
import type { LoaderArgs } from "../lib/context.js";
import { themeCss } from "../lib/theme-css.server.js";
import { themeHash } from "../lib/theme.js";

export function loader({ request, context }: LoaderArgs) {
  const colors = themeOf(context.larder);
  // The page links the current theme's hash: that address never changes content, any other may.
  const current = new URL(request.url).searchParams.get("v") === themeHash(colors);
  return new Response(themeCss(colors), {
    headers: {
      "Content-Type": "text/css; charset=utf-8",
      "Cache-Control": current ? "public, max-age=31536000, immutable" : "no-cache",
    },
  });
}
