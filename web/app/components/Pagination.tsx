/** Previous / page x of y / next, as plain links (works without JavaScript). */
import { Link } from "@remix-run/react";

export function Pagination({
  page,
  totalPages,
  hrefFor,
}: {
  page: number;
  totalPages: number;
  hrefFor: (page: number) => string;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav className="pagination" aria-label="Pages">
      {page > 1 ? (
        <Link className="button" to={hrefFor(page - 1)} rel="prev">
          ← Previous
        </Link>
      ) : (
        <span className="button" aria-disabled="true">
          ← Previous
        </span>
      )}
      <span className="pagination__status" aria-current="page">
        Page {page} of {totalPages}
      </span>
      {page < totalPages ? (
        <Link className="button" to={hrefFor(page + 1)} rel="next">
          Next →
        </Link>
      ) : (
        <span className="button" aria-disabled="true">
          Next →
        </span>
      )}
    </nav>
  );
}
