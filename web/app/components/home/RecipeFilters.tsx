/**
 * The group home's filter bar: search, organizer filters with their require-all switches, order by and
 * direction, and random order with a seed. It is a GET form, so it works before hydration (Apply);
 * afterwards every change navigates at once and typing searches after a 500 ms pause.
 */
import { useEffect, useRef, useState } from "react";
import { Form, useNavigate } from "react-router";
import { ActionIcon, Button, MultiSelect, Select, Switch, TextInput, Tooltip } from "@mantine/core";
import { useT } from "../../lib/i18n.js";
import {
  FILTER_KEYS,
  ORDER_BY,
  REQUIRE_ALL,
  toSearchParams,
  type FilterKey,
  type HomeQuery,
  type RequireAllKey,
} from "../../lib/recipe-list-query.js";
import { SEARCH_DEBOUNCE_MS } from "../shell/SearchDialog.js";
import { FilterIcon, SearchIcon, ShuffleIcon, SortAscIcon, SortDescIcon } from "../shell/ShellIcons.js";

export interface FilterOption {
  value: string;
  label: string;
}

export interface RecipeFiltersProps {
  base: string;
  query: HomeQuery;
  options: Record<FilterKey, FilterOption[]>;
  /** Remember an order the user picks (spec §3 local preference). */
  onOrderChange?: (orderBy: HomeQuery["orderBy"], direction: HomeQuery["orderDirection"]) => void;
}

export function RecipeFilters({ base, query, options, onOrderChange }: RecipeFiltersProps) {
  const t = useT("shell");
  const navigate = useNavigate();
  // Uncontrolled, so text typed before hydration survives it (a controlled box would reset to the URL's).
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const active = FILTER_KEYS.some((k) => query.filters[k].length > 0);
  // Phones: the organizer filters fold away behind a button unless one is in use (CSS keeps them open on wide screens).
  const [expanded, setExpanded] = useState(active);

  const go = (next: HomeQuery) => {
    if (timer.current) clearTimeout(timer.current);
    const qs = toSearchParams({ ...next, page: 1 }).toString();
    navigate(qs ? `${base}?${qs}` : base, { replace: true, preventScrollReset: true });
  };
  const typedSearch = () => (input.current?.value ?? query.search).trim();

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  // A new URL (chip link, back button, drawer) shows its search, unless the user is typing in the box.
  useEffect(() => {
    const el = input.current;
    if (el && document.activeElement !== el) el.value = query.search;
  }, [query.search]);

  const onType = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (typedSearch() !== query.search) go({ ...query, search: typedSearch() });
    }, SEARCH_DEBOUNCE_MS);
  };

  const setFilter = (k: FilterKey, values: string[]) =>
    go({ ...query, filters: { ...query.filters, [k]: values } });
  const setAll = (k: RequireAllKey, on: boolean) =>
    go({ ...query, requireAll: { ...query.requireAll, [k]: on } });
  const setOrder = (orderBy: HomeQuery["orderBy"], orderDirection = query.orderDirection) => {
    const seed = orderBy === "random" ? String(Date.now()) : null;
    onOrderChange?.(orderBy, orderDirection);
    go({ ...query, orderBy, orderDirection, seed });
  };

  const orderBy = query.orderBy ?? (query.search ? null : "name");
  return (
    <Form
      method="get"
      action={base}
      className={`filters${expanded ? "" : " filters--collapsed"}`}
      role="search"
      aria-label={t("home.filters")}
      onSubmit={(e) => {
        e.preventDefault();
        go({ ...query, search: typedSearch() });
      }}
    >
      {query.cookbook ? <input type="hidden" name="cookbook" value={query.cookbook} /> : null}
      <TextInput
        className="filters__search"
        name="search"
        type="search"
        ref={input}
        defaultValue={query.search}
        onChange={onType}
        label={t("home.searchLabel")}
        placeholder={t("search.placeholder")}
        leftSection={<SearchIcon />}
        autoComplete="off"
        data-testid="home-search"
      />
      <Button
        className="filters__toggle"
        variant="default"
        leftSection={<FilterIcon />}
        onClick={() => setExpanded((e) => !e)}
        aria-expanded={expanded}
        data-testid="filters-toggle"
      >
        {t("home.filters")}
      </Button>
      {FILTER_KEYS.map((k) =>
        options[k].length ? (
          <div key={k} className="filters__organizer">
            <MultiSelect
              name={k}
              label={t(`home.${k}`)}
              data={options[k]}
              value={query.filters[k]}
              onChange={(v) => setFilter(k, v)}
              searchable
              clearable
              hidePickedOptions
              maxDropdownHeight={280}
              comboboxProps={{ withinPortal: true }}
              data-testid={`filter-${k}`}
            />
            {k in REQUIRE_ALL && query.filters[k].length > 1 ? (
              <Switch
                mt={6}
                size="xs"
                name={REQUIRE_ALL[k as RequireAllKey]}
                value="true"
                checked={query.requireAll[k as RequireAllKey]}
                onChange={(e) => setAll(k as RequireAllKey, e.currentTarget.checked)}
                label={t("home.requireAll")}
                data-testid={`require-all-${k}`}
              />
            ) : null}
          </div>
        ) : null,
      )}
      <div className="filters__actions">
        <Select
          name="orderBy"
          aria-label={t("home.orderBy")}
          placeholder={t("home.orderBy")}
          data={ORDER_BY.map((o) => ({ value: o, label: t(`home.order.${o}`) }))}
          value={orderBy}
          onChange={(v) => setOrder((v as HomeQuery["orderBy"]) ?? null)}
          allowDeselect={false}
          w={170}
          comboboxProps={{ withinPortal: true }}
          data-testid="order-by"
        />
        {orderBy !== "random" ? (
          <Tooltip label={query.orderDirection === "asc" ? t("home.ascending") : t("home.descending")}>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={query.orderDirection === "asc" ? t("home.ascending") : t("home.descending")}
              onClick={() => setOrder(orderBy, query.orderDirection === "asc" ? "desc" : "asc")}
              data-testid="order-direction"
            >
              {query.orderDirection === "asc" ? <SortAscIcon /> : <SortDescIcon />}
            </ActionIcon>
          </Tooltip>
        ) : null}
        <input type="hidden" name="orderDirection" value={query.orderDirection} />
        <Button
          variant="default"
          leftSection={<ShuffleIcon />}
          onClick={() => setOrder("random")}
          data-testid="random-order"
        >
          {orderBy === "random" ? t("home.shuffle") : t("home.random")}
        </Button>
        <noscript>
          <Button type="submit">{t("home.apply")}</Button>
        </noscript>
      </div>
    </Form>
  );
}
