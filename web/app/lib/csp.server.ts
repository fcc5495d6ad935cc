/**
 * The Content-Security-Policy of every HTML page (decisions 0021, 0120).
 *
 * Scripts: only our own files, and the inline scripts this page's render produced (React Router's
 * hydration data and module loader, Mantine's colour-scheme script, React's streaming chunks) — named
 * either by a fresh nonce (a page streamed as it renders) or by their SHA-256 hashes (a page rendered
 * whole and kept by the render cache, whose bytes then never change). Never 'unsafe-inline' for scripts.
 *
 * Styles: 'unsafe-inline', for styles only. Mantine renders its CSS variables as `style="…"` attributes on
 * the server, and its scroll lock (react-remove-scroll) inserts a `<style>` element at run time without a
 * nonce; neither can carry a nonce, and a CSS injection cannot run code, which script-src still forbids.
 *
 * Images may come from anywhere over https (recipe Markdown links them); frames only from the video hosts
 * the Markdown sanitiser lets through (lib/markdown.ts).
 */
export type InlineScripts = { nonce: string } | { hashes: readonly string[] };

export function contentSecurityPolicy(scripts: InlineScripts): string {
  const allowed = "nonce" in scripts ? [`'nonce-${scripts.nonce}'`] : scripts.hashes.map((h) => `'${h}'`);
  return [
    "default-src 'self'",
    ["script-src 'self'", ...allowed].join(" "),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "media-src 'self'",
    "frame-src https://www.youtube.com https://youtube.com https://www.youtube-nocookie.com https://player.vimeo.com",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join("; ");
}
