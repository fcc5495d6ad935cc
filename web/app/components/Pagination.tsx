/** Previous / page x of y / next, as plain links (works without JavaScript). */
import { Link, useSearchParams } from "react-router";
import { useLanguage, useT } from "../lib/i18n.js";
import { useFormat } from "../lib/use-format.js";

export function Pagination({
  page,
  totalPages,
  hrefFor,
}: {
  page: number;
  totalPages: number;
  /** Where page n is; by default the current address with its `page` parameter set to n. */
  hrefFor?: (page: number) => string;
}) {
  const [params] = useSearchParams();
  hrefFor ??= (p: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(p));
    return `?${next.toString()}`;
  };
  const t = useT("common");
  const f = useFormat();
  const { dir } = useLanguage();
  if (totalPages <= 1) return null;
  // The arrows point the way the page turns: leftwards for "previous" only when text runs left to right.
  const [back, forward] = dir === "rtl" ? ["→", "←"] : ["←", "→"];
  const prev = `${back} ${t("actions.previous")}`;
  const next = `${t("actions.next")} ${forward}`;
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
        {t("pagination.status", { page: f.number(page), total: f.number(totalPages) })}
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
