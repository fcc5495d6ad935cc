/**
 * The Content-Security-Policy of every HTML page (decision 0021).
 *
 * Scripts: only our own files and inline scripts carrying this response's nonce (React Router's hydration
 * data and module loader, Mantine's colour-scheme script, React's streaming chunks).
 *
 * Styles: 'unsafe-inline', for styles only. Mantine renders its CSS variables as `style="…"` attributes on
 * the server, and its scroll lock (react-remove-scroll) inserts a `<style>` element at run time without a
 * nonce; neither can carry a nonce, and a CSS injection cannot run code, which script-src still forbids.
 *
 * Images may come from anywhere over https (recipe Markdown links them); frames only from the video hosts
 * the Markdown sanitiser lets through (lib/markdown.ts).
 */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
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
