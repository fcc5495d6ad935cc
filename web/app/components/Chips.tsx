/** Organizer chips (tags, categories) linking to the group home filtered by them. */
import { Link } from "react-router";
import { truncateChip } from "../lib/format.js";

export interface ChipItem {
  name: string;
  slug: string;
}

export interface ChipsProps {
  items: ChipItem[];
  groupSlug: string;
  /** Query parameter of the group home the chips filter by. */
  param: "tags" | "categories" | "tools";
  /** Cards show at most 2, truncated (spec §9); the recipe page shows all. */
  limit?: number;
  truncate?: boolean;
  small?: boolean;
  label?: string;
}

export function Chips({ items, groupSlug, param, limit, truncate, small, label }: ChipsProps) {
  const shown = limit === undefined ? items : items.slice(0, limit);
  if (shown.length === 0) return null;
  return (
    <ul className={`chips${small ? " chips--small" : ""}`} aria-label={label}>
      {shown.map((item) => (
        <li key={item.slug}>
          <Link
            className="chip"
            to={`/g/${groupSlug}?${param}=${encodeURIComponent(item.slug)}`}
            title={item.name}
          >
            {/* Isolated, so a Latin name's "..." stays at its end on a right-to-left page. */}
            <bdi>{truncate ? truncateChip(item.name) : item.name}</bdi>
          </Link>
        </li>
      ))}
    </ul>
  );
}
