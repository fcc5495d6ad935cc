/**
 * Pick a recipe by searching for it: a combobox over the search dialog's data (/_search, spec §7 "Recipe
 * search"), asked after a short pause in typing. Arrow keys move through the results, Enter picks.
 */
import { useEffect, useRef, useState } from "react";
import { Combobox, Group, InputBase, Loader, Text, useCombobox } from "@mantine/core";
import { RecipeImage } from "../RecipeImage.js";
import { useT } from "../../lib/i18n.js";

export interface PickedRecipe {
  id: string;
  slug: string;
  name: string;
  image: string | null;
}

/** Shorter than the search dialog's 500 ms: a picker is typed into briefly and often. */
const PAUSE_MS = 300;

export function RecipePicker({
  groupSlug,
  value,
  onChange,
  label,
  error,
}: {
  groupSlug: string;
  value: PickedRecipe | null;
  onChange: (r: PickedRecipe | null) => void;
  label: string;
  error?: string;
}) {
  const t = useT("planner");
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [query, setQuery] = useState(value?.name ?? "");
  const [results, setResults] = useState<PickedRecipe[]>([]);
  const [loading, setLoading] = useState(false);
  const asked = useRef(0);

  useEffect(() => {
    const text = query.trim();
    if (!text || text === value?.name) {
      setResults([]);
      return;
    }
    const n = ++asked.current;
    const timer = setTimeout(() => {
      setLoading(true);
      const url = `/_search?group=${encodeURIComponent(groupSlug)}&search=${encodeURIComponent(text)}`;
      fetch(url, { headers: { Accept: "application/json" } })
        .then((r) => r.json() as Promise<{ items?: PickedRecipe[] }>)
        .then((d) => {
          if (n !== asked.current) return; // a later query is on its way: drop this answer
          setResults((d.items ?? []).map((i) => ({ id: i.id, slug: i.slug, name: i.name, image: i.image })));
          combobox.openDropdown();
          combobox.selectFirstOption();
        })
        .catch(() => n === asked.current && setResults([]))
        .finally(() => n === asked.current && setLoading(false));
    }, PAUSE_MS);
    return () => clearTimeout(timer);
    // combobox is a fresh object each render; the query alone decides when to ask.
  }, [query, groupSlug, value?.name]);

  return (
    <Combobox
      store={combobox}
      withinPortal={false}
      onOptionSubmit={(id) => {
        const r = results.find((x) => x.id === id) ?? null;
        onChange(r);
        setQuery(r?.name ?? "");
        combobox.closeDropdown();
      }}
    >
      <Combobox.Target>
        <InputBase
          label={label}
          placeholder={t("entry.searchPlaceholder")}
          value={query}
          error={error}
          data-testid="recipe-picker"
          rightSection={loading ? <Loader size="xs" /> : null}
          onChange={(e) => {
            setQuery(e.currentTarget.value);
            if (value) onChange(null);
          }}
          onFocus={() => results.length && combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={!query.trim() || (results.length === 0 && loading)}>
        <Combobox.Options mah={260} style={{ overflowY: "auto" }}>
          {results.length === 0 && !loading ? (
            <Combobox.Empty>{t("entry.noResults")}</Combobox.Empty>
          ) : (
            results.map((r) => (
              <Combobox.Option value={r.id} key={r.id}>
                <Group gap="xs" wrap="nowrap">
                  <RecipeImage
                    recipeId={r.id}
                    image={r.image}
                    size="tiny-original"
                    alt={r.name}
                    className="plan-pick__img"
                  />
                  <Text size="sm" truncate>
                    {r.name}
                  </Text>
                </Group>
              </Combobox.Option>
            ))
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
