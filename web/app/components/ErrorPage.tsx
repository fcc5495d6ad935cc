/** The error page (spec §2): 404 -> 'page not found' and a home button; anything else 'an error occurred'. */
import { Link } from "react-router";
import { Button } from "@mantine/core";
import { useT } from "../lib/i18n.js";
import { HomeIcon } from "./icons.js";

export function ErrorPage({ status }: { status: number | null }) {
  const t = useT("common");
  const title = status === 404 ? t("errors.pageNotFound") : t("errors.anErrorOccurred");
  return (
    <main className="error-page" id="main">
      {status ? <p className="error-page__status">{status}</p> : null}
      <h1 className="error-page__title">{title}</h1>
      <Button component={Link} to="/" leftSection={<HomeIcon />} data-testid="home-button">
        {t("actions.home")}
      </Button>
    </main>
  );
}
