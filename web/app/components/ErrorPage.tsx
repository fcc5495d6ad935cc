/** The error page (spec §2): 404 -> 'page not found' and a home button; anything else 'an error occurred'. */
import { Link } from "@remix-run/react";
import { HomeIcon } from "./icons.js";

export function errorTitle(status: number | null): string {
  return status === 404 ? "page not found" : "an error occurred";
}

export function ErrorPage({ status }: { status: number | null }) {
  const title = errorTitle(status);
  return (
    <main className="error-page" id="main">
      {status ? <p className="error-page__status">{status}</p> : null}
      <h1 className="error-page__title">{title}</h1>
      <Link to="/" className="button button--primary">
        <HomeIcon />
        <span>Home</span>
      </Link>
    </main>
  );
}
