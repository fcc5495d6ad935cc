/**
 * `data-ready` + `data-path` for the layout's root element: set in an effect after the layout's own
 * effects (key listeners), for the page now shown. E2E tests wait for them (tests/e2e/support/browser.ts
 * `hydrated`), so a key press never lands between a navigation and the new page's listeners.
 */
import { useEffect, useState } from "react";
import { useLocation } from "react-router";

export function useShellReady(): { "data-ready"?: true; "data-path"?: string } {
  const { pathname } = useLocation();
  const [readyPath, setReadyPath] = useState<string | null>(null);
  useEffect(() => setReadyPath(pathname), [pathname]);
  return readyPath === null ? {} : { "data-ready": true, "data-path": readyPath };
}
