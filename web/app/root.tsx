/** The document shell: head, styles, and the error page for anything a route throws (spec §2). */
import type { ReactNode } from "react";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useRouteError,
} from "@remix-run/react";
import styles from "./styles.css?url";
import { ErrorPage, errorTitle } from "./components/ErrorPage.js";
import { TopBar } from "./components/TopBar.js";
import { getUserActor, groupSlugOf } from "./lib/session.server.js";
import { useSession, type SessionInfo } from "./lib/use-session.js";

/** Who is signed in, for the top bar of every page (the error page included). */
export async function loader({
  request,
  context,
}: LoaderFunctionArgs): Promise<{ session: SessionInfo | null }> {
  const actor = await getUserActor(request, context);
  if (!actor) return { session: null };
  return {
    session: {
      userName: actor.user.fullName || actor.user.username,
      groupSlug: groupSlugOf(context, actor.user),
    },
  };
}

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Larder" }];

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const session = useSession();
  const status = isRouteErrorResponse(error) ? error.status : null;
  if (!isRouteErrorResponse(error) && typeof console !== "undefined") console.error(error);
  return (
    <>
      <title>{errorTitle(status)}</title>
      <TopBar groupSlug={session?.groupSlug} userName={session?.userName} />
      <ErrorPage status={status} />
    </>
  );
}
