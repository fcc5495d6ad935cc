/** Previous / page x of y / next, as plain links (works without JavaScript). */
import { Link } from "react-router";
import { useT } from "../lib/i18n.js";

export function Pagination({
  page,
  totalPages,
  hrefFor,
}: {
  page: number;
  totalPages: number;
  hrefFor: (page: number) => string;
}) {
  const t = useT("common");
  if (totalPages <= 1) return null;
  const prev = `← ${t("actions.previous")}`;
  const next = `${t("actions.next")} →`;
  return (
    <nav className="pagination" aria-label={t("pagination.label")}>
      {page > 1 ? (
        <Link className="button" to={hrefFor(page - 1)} rel="prev">
          {prev}
        </Link>
      ) : (
        <span className="button" aria-disabled="true">
          {prev}
        </span>
      )}
      <span className="pagination__status" aria-current="page">
        {t("pagination.status", { page, total: totalPages })}
      </span>
      {page < totalPages ? (
        <Link className="button" to={hrefFor(page + 1)} rel="next">
          {next}
        </Link>
      ) : (
        <span className="button" aria-disabled="true">
          {next}
        </span>
      )}
    </nav>
  );
}
