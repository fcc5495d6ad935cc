/**
 * Whether a browser holds this build's stylesheets in its cache (decision 0309): the server inlines them
 * into a page until it does (lib/inline-styles.server.ts); entry.client.tsx sets the cookie once it has
 * fetched the sheets a page inlined.
 */
export const STYLES_COOKIE = "larder_styles";

/** Names the page's build when its stylesheets were inlined: the cookie's value once they are cached. */
export const STYLES_META = "larder-styles";

/** What STYLES_COOKIE holds for this build: the root stylesheet's content hash, from its address. */
export function stylesIdOf(rootStylesheetHref: string): string {
  const m = /-([A-Za-z0-9_-]+)\.css$/.exec(rootStylesheetHref);
  return m ? m[1] : rootStylesheetHref;
}
