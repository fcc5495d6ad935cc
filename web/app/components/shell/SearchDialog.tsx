/**
 * The search dialog (spec §2, §4, §8, §9): searches 500 ms after the last key press, up/down arrows move
 * through the result cards and Enter opens one, a link to the advanced search at /g/{groupSlug}. Closing
 * or navigating clears the query and the results; a failed search is logged and empties the list.
 * Data: GET /_search (routes/[_]search.tsx), which searches through explore for visitors.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { Link, useNavigate } from "react-router";
import { Anchor, Group, Loader, Text, TextInput } from "@mantine/core";
import { LazyModal } from "../dialog/LazyModal.js";
import { useMediaQuery } from "@mantine/hooks";
import { XS_QUERY } from "../dialog/AppDialog.js";
import { RecipeImage } from "../RecipeImage.js";
import { Stars } from "../Stars.js";
import { useT } from "../../lib/i18n.js";
import { useFormat } from "../../lib/use-format.js";
import type { SearchResult } from "../../routes/[_]search.js";
import { SearchIcon } from "./ShellIcons.js";

/** Spec §9: search pause 500 ms. */
export const SEARCH_DEBOUNCE_MS = 500;

export interface SearchDialogProps {
  opened: boolean;
  onClose: () => void;
  groupSlug: string;
}

export function SearchDialog({ opened, onClose, groupSlug }: SearchDialogProps) {
  const t = useT("shell");
  const f = useFormat();
  const xs = useMediaQuery(XS_QUERY);
  const navigate = useNavigate();
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<SearchResult[]>([]);
  const [active, setActive] = useState(-1);
  const [loading, setLoading] = useState(false);
  const [searched, setSearched] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);

  // Closing clears everything (spec §2), so the next open starts empty.
  useEffect(() => {
    if (opened) return;
    setQuery("");
    setResults([]);
    setActive(-1);
    setSearched(false);
  }, [opened]);

  useEffect(() => {
    const text = query.trim();
    if (!opened || !text) {
      setResults([]);
      setLoading(false);
      setSearched(false);
      return;
    }
    const abort = new AbortController();
    setLoading(true);
    const timer = setTimeout(async () => {
      try {
        const params = new URLSearchParams({ group: groupSlug, search: text });
        const res = await fetch(`/_search?${params}`, {
          signal: abort.signal,
          headers: { Accept: "application/json" },
        });
        if (!res.ok) throw new Error(`search failed: HTTP ${res.status}`);
        const body = (await res.json()) as { items: SearchResult[] };
        setResults(body.items);
        setActive(body.items.length ? 0 : -1);
      } catch (e) {
        if (abort.signal.aborted) return;
        console.error("search failed", e); // spec §8: search errors are logged and the results cleared
        setResults([]);
        setActive(-1);
      } finally {
        if (!abort.signal.aborted) {
          setLoading(false);
          setSearched(true);
        }
      }
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [query, opened, groupSlug]);

  useEffect(() => {
    if (active < 0) return;
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: "nearest" });
  }, [active]);

  const hrefOf = (r: SearchResult) => `/g/${encodeURIComponent(groupSlug)}/r/${encodeURIComponent(r.slug)}`;
  const advanced = `/g/${encodeURIComponent(groupSlug)}${query.trim() ? `?search=${encodeURIComponent(query.trim())}` : ""}`;

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (results.length === 0) return;
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive((i) => (i + step + results.length) % results.length);
    } else if (e.key === "Enter") {
      e.preventDefault();
      const hit = results[active];
      onClose();
      navigate(hit ? hrefOf(hit) : advanced);
    }
  };

  const optionId = (i: number) => `search-result-${i}`;
  return (
    <LazyModal
      opened={opened}
      onClose={onClose}
      fullScreen={Boolean(xs)}
      size={988}
      title={t("search.title")}
      classNames={{ content: "search-dialog" }}
      data-testid="search-dialog"
      closeButtonProps={{ "aria-label": t("common:actions.close") }}
    >
      <TextInput
        data-autofocus
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={onKeyDown}
        placeholder={t("search.placeholder")}
        aria-label={t("search.label")}
        leftSection={<SearchIcon />}
        rightSection={loading ? <Loader size="xs" /> : null}
        role="combobox"
        aria-expanded={results.length > 0}
        aria-controls="search-results"
        aria-activedescendant={active >= 0 ? optionId(active) : undefined}
        autoComplete="off"
        data-testid="search-input"
      />
      <Group justify="flex-end" mt="xs">
        <Anchor component={Link} to={advanced} onClick={onClose} size="sm" data-testid="advanced-search">
          {t("search.advanced")}
        </Anchor>
      </Group>
      <ul
        className="search-results"
        id="search-results"
        role="listbox"
        ref={listRef}
        aria-label={t("search.results")}
      >
        {results.map((r, i) => (
          // The link itself is the option (axe: an option must not hold another interactive control).
          <li key={r.id} role="none" data-index={i}>
            <Link
              role="option"
              id={optionId(i)}
              aria-selected={i === active}
              to={hrefOf(r)}
              className="search-result"
              data-active={i === active || undefined}
              onClick={onClose}
              onMouseEnter={() => setActive(i)}
              tabIndex={-1}
            >
              <RecipeImage
                recipeId={r.id}
                image={r.image}
                size="tiny-original"
                alt=""
                className="search-result__image"
              />
              <span className="search-result__body">
                <Text component="span" fw={600} className="search-result__name">
                  {r.name}
                </Text>
                {r.description ? (
                  <Text
                    component="span"
                    size="sm"
                    c="dimmed"
                    lineClamp={2}
                    className="search-result__description"
                  >
                    {r.description}
                  </Text>
                ) : null}
              </span>
              {r.rating ? (
                <Stars value={r.rating} label={t("common:rating", { value: f.number(r.rating) })} />
              ) : null}
            </Link>
          </li>
        ))}
      </ul>
      {searched && !loading && results.length === 0 ? (
        <Text c="dimmed" ta="center" py="md" data-testid="search-empty">
          {t("search.noResults")}
        </Text>
      ) : null}
    </LazyModal>
  );
}
