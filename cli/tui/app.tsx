/**
 * The terminal app (`larder tui`): recipe search, the reader with scaling, the week's plan, shopping
 * lists to check off and URL imports. Every screen is a list of lines (lines.ts) shown in a window that
 * fits the terminal (80×24 over SSH included). Only bold, dim and inverse are used, never a colour or a
 * background, so light and dark terminals both read it; plain mode drops the rule lines and inverse
 * and marks the cursor with text, for screen readers.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { Box, Text, useApp, useInput, useStdout, type Key } from "ink";
import {
  baseServings,
  itemLines,
  itemText,
  planLines,
  recipeLines,
  sortedItems,
  stepScale,
  truncate,
  weekStart,
  type Line,
} from "./lines.js";
import type {
  PlanEntryOut,
  RecipeHit,
  RecipeView,
  ShoppingListOut,
  ShoppingListSummaryOut,
  TuiSource,
} from "./source.js";
import { addDays, todayUtc } from "../../core/mealplans/dates.js";
import { formatDecimal } from "../../core/recipes/quantity.js";

export type Screen =
  | { kind: "search" }
  | { kind: "recipe"; slug: string }
  | { kind: "plan" }
  | { kind: "lists" }
  | { kind: "list"; id: string }
  | { kind: "imports" };

const TABS: { kind: "search" | "plan" | "lists" | "imports"; label: string }[] = [
  { kind: "search", label: "Recipes" },
  { kind: "plan", label: "Plan" },
  { kind: "lists", label: "Lists" },
  { kind: "imports", label: "Imports" },
];

export interface ImportJob {
  id: number;
  url: string;
  state: "running" | "done" | "failed";
  slug?: string;
  error?: string;
  started: number;
  finished?: number;
}

interface Ctx {
  source: TuiSource;
  plain: boolean;
  width: number;
  /** Rows available for a screen's body. */
  height: number;
  /** The shown screen's key handler, set as it renders; App passes keys on to it. */
  keys: { current: ((input: string, key: Key) => void) | null };
  open(screen: Screen, replace?: boolean): void;
  back(): void;
  announce(text: string): void;
}

/** Keys each screen answers to, shown by `?` and (shortened) in the footer. */
const HELP: Record<Screen["kind"], [string, string][]> = {
  search: [
    ["type", "search recipes as you type"],
    ["↑ ↓", "move"],
    ["Enter", "open the recipe"],
    ["Esc", "clear the search; quit when empty"],
  ],
  recipe: [
    ["+ -", "more or fewer servings"],
    ["0", "back to the recipe's servings"],
    ["↑ ↓ PgUp PgDn", "scroll"],
    ["q Esc", "back"],
  ],
  plan: [
    ["← →", "previous or next week"],
    ["t", "this week"],
    ["↑ ↓", "move between meals"],
    ["Enter", "open the meal's recipe"],
    ["q Esc", "back"],
  ],
  lists: [
    ["↑ ↓", "move"],
    ["Enter", "open the list"],
    ["q Esc", "back"],
  ],
  list: [
    ["↑ ↓", "move"],
    ["Space", "check the item off (or back on)"],
    ["r", "reload"],
    ["q Esc", "back"],
  ],
  imports: [
    ["i", "paste a recipe URL and import it"],
    ["↑ ↓", "move"],
    ["Enter", "open an imported recipe"],
    ["q Esc", "back"],
  ],
};

const GLOBAL_HELP: [string, string][] = [
  ["Tab", "next screen (Shift+Tab: previous)"],
  ["/ p l i", "recipes, plan, lists, import (outside a text field)"],
  ["?", "this help"],
  ["Ctrl+C", "quit"],
];

const FOOTER: Record<Screen["kind"], string> = {
  search: "type to search · ↑↓ move · Enter open · Tab next · ? help · Esc quit",
  recipe: "+/- servings · ↑↓ scroll · ? help · q back",
  plan: "←/→ week · t today · Enter open · ? help · q back",
  lists: "↑↓ move · Enter open · ? help · q back",
  list: "Space check · ↑↓ move · r reload · ? help · q back",
  imports: "i import URL · Enter open · ? help · q back",
};

function useSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = () => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
  }, [stdout]);
  return size;
}

/**
 * Ink's useInput with a handler that may change on every render, subscribed once: Ink re-subscribes
 * whenever the handler changes, after the frame is on screen, and a key arriving in between (typed
 * fast, pasted, or sent by a test) would be lost. For the same reason screens do not subscribe at all
 * (a new screen would subscribe only after its first frame): App hands keys to the one on show.
 */
function useKeys(handler: (input: string, key: Key) => void): void {
  const current = useRef(handler);
  current.current = handler;
  const stable = useCallback((input: string, key: Key) => current.current(input, key), []);
  useInput(stable);
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The visible slice of `lines`: scrolled so the cursor stays in view, each line cut to the width. */
function Body({
  lines,
  cursor,
  offset,
  ctx,
}: {
  lines: Line[];
  cursor?: number;
  offset?: number;
  ctx: Pick<Ctx, "plain" | "width" | "height">;
}) {
  const h = Math.max(1, ctx.height);
  let start = offset ?? 0;
  if (cursor !== undefined) start = Math.max(0, Math.min(cursor - Math.floor(h / 2), lines.length - h));
  start = Math.max(0, Math.min(start, Math.max(0, lines.length - h)));
  const shown = lines.slice(start, start + h);
  const marks = cursor !== undefined;
  return (
    <Box flexDirection="column" height={h}>
      {shown.map((line, i) => {
        const selected = marks && start + i === cursor;
        const prefix = marks ? (selected ? "> " : "  ") : "";
        const text = truncate(prefix + line.text, ctx.width) || " ";
        return (
          <Text
            key={start + i}
            bold={line.bold || (selected && !ctx.plain)}
            dimColor={line.dim && !selected}
            inverse={selected && !ctx.plain}
            wrap="truncate-end"
          >
            {text}
          </Text>
        );
      })}
    </Box>
  );
}

/** Move a cursor among the lines that have a key; -1 when none has. */
function moveCursor(lines: Line[], cursor: number, delta: number): number {
  const keyed = lines.map((l, i) => (l.key ? i : -1)).filter((i) => i >= 0);
  if (!keyed.length) return -1;
  const at = keyed.indexOf(cursor);
  if (at < 0) return keyed[0];
  return keyed[Math.max(0, Math.min(keyed.length - 1, at + delta))];
}

function Loading({ what, error }: { what: string; error?: string }) {
  return error ? (
    <Text>
      Could not load {what}: {error}
    </Text>
  ) : (
    <Text dimColor>Loading {what}…</Text>
  );
}

function SearchScreen({ ctx, live }: { ctx: Ctx; live: Live<string> }) {
  const query = live.value;
  const [hits, setHits] = useState<RecipeHit[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string>();
  const [cursor, setCursor] = useState(0);
  const asked = useRef(0);
  const page = Math.max(5, ctx.height);
  // Recipes asked for: a page more each time the cursor reaches the last one loaded.
  const [limit, setLimit] = useState(page);
  const shownQuery = useRef<string | null>(null);
  // The folder may still be opening behind the first frame (OpeningSource).
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    let mounted = true;
    ctx.source.ready.then(
      () => mounted && setOpened(true),
      () => undefined,
    );
    return () => {
      mounted = false;
    };
  }, [ctx.source]);

  useEffect(() => {
    // Answers can arrive out of order (over HTTP): only the latest query's answer is shown.
    const n = ++asked.current;
    ctx.source.search(query, limit).then(
      (answer) => {
        if (n !== asked.current) return;
        setHits(answer.items);
        setTotal(answer.total);
        setError(undefined);
        // More of the same list keeps the cursor where it was; a new query starts at the top.
        if (shownQuery.current !== query) {
          cursorNow.current = 0;
          setCursor(0);
        } else if (wanted.current !== null) {
          // A move past the last recipe loaded, made while more were on their way.
          cursorNow.current = Math.min(wanted.current, answer.items.length - 1);
          setCursor(cursorNow.current);
        }
        wanted.current = null;
        shownQuery.current = query;
      },
      (e: unknown) => n === asked.current && setError(errorText(e)),
    );
  }, [query, limit, ctx.source]);

  // The cursor as of the last key, which may not have been rendered yet (keys arrive faster than frames).
  const cursorNow = useRef(0);
  const wanted = useRef<number | null>(null);
  cursorNow.current = Math.min(cursorNow.current, Math.max(0, (hits?.length ?? 1) - 1));
  const move = (by: number) => {
    const loaded = hits?.length ?? 0;
    const next = Math.max(0, Math.min(total - 1, cursorNow.current + by));
    if (next >= loaded - 1 && loaded < total) {
      setLimit((l) => Math.max(l, next + page));
      if (next > loaded - 1) wanted.current = next;
    }
    cursorNow.current = Math.max(0, Math.min(next, loaded - 1));
    setCursor(cursorNow.current);
  };

  ctx.keys.current = (input, key) => {
    if (key.upArrow) move(-1);
    else if (key.downArrow) move(1);
    else if (key.pageUp) move(-(ctx.height - 3));
    else if (key.pageDown) move(ctx.height - 3);
    else if (key.return) {
      const hit = hits?.[cursor];
      if (hit) ctx.open({ kind: "recipe", slug: hit.slug });
    } else if (key.escape) {
      if (live.ref.current) live.set("");
      else ctx.back();
    } else {
      const next = editText(live.ref.current, input, key);
      if (next !== null) {
        setLimit(page);
        live.set(next);
      }
    }
  };

  const lines: Line[] = (hits ?? []).map((h) => ({
    text: h.description ? `${h.name} — ${h.description.replace(/\s+/g, " ")}` : h.name,
    key: h.slug,
  }));
  const status = error
    ? `Search failed: ${error}`
    : hits === null
      ? opened
        ? "Searching…"
        : "Opening the data folder…"
      : hits.length === 0
        ? query
          ? `No recipe matches "${query}".`
          : "No recipes yet."
        : `${total} recipe${total === 1 ? "" : "s"}${hits.length < total ? ` (${hits.length} loaded; more as you scroll)` : ""}`;
  return (
    <Box flexDirection="column">
      <Text>
        Search: {query}
        {ctx.plain ? "" : "▏"}
      </Text>
      <Text dimColor>{status}</Text>
      <Body
        lines={lines}
        cursor={lines.length ? cursor : undefined}
        ctx={{ ...ctx, height: ctx.height - 2 }}
      />
    </Box>
  );
}

/**
 * A text field's value after a key press or a paste (which may mix letters and backspaces); null when
 * the key is not an edit. `?` opens the help everywhere but in the URL field.
 */
export function editText(value: string, input: string, key: Key, allowQuestion = false): string | null {
  if ((key.backspace || key.delete) && input.length <= 1) return value.slice(0, -1);
  if (!input || key.ctrl || key.meta || key.tab || key.return || key.escape) return null;
  let out = value;
  let changed = false;
  for (const c of input) {
    if (c === "\u007f" || c === "\b") out = out.slice(0, -1);
    else if (/[\u0000-\u001f]/.test(c) || (c === "?" && !allowQuestion)) continue;
    else out += c;
    changed = true;
  }
  return changed ? out : null;
}

/** State whose latest value handlers can read before it is rendered (keys arrive faster than frames). */
export interface Live<T> {
  value: T;
  ref: { current: T };
  set(v: T): void;
}
function useLive<T>(initial: T): Live<T> {
  const [value, setValue] = useState(initial);
  const ref = useRef(initial);
  const set = useCallback((v: T) => {
    ref.current = v;
    setValue(v);
  }, []);
  return { value, ref, set };
}

function RecipeScreen({ ctx, slug }: { ctx: Ctx; slug: string }) {
  const [recipe, setRecipe] = useState<RecipeView | null>(null);
  const [error, setError] = useState<string>();
  const [scale, setScale] = useState(1);
  // The scale as of the last key, which may not have been rendered yet.
  const scaleNow = useRef(1);
  const [offset, setOffset] = useState(0);

  useEffect(() => {
    ctx.source.recipe(slug).then(setRecipe, (e: unknown) => setError(errorText(e)));
  }, [slug, ctx.source]);

  const lines = recipe ? recipeLines(recipe, scale, ctx.width - 1) : [];
  const maxOffset = Math.max(0, lines.length - ctx.height);
  ctx.keys.current = (input, key) => {
    if (key.escape || input === "q") return ctx.back();
    if (!recipe) return;
    const servings = baseServings(recipe);
    const scaleTo = (next: number) => {
      scaleNow.current = next;
      setScale(next);
      ctx.announce(
        servings ? `Servings: ${formatDecimal(next * servings)}` : `Scale ×${formatDecimal(next)}`,
      );
    };
    // A paste or fast typing can bring several presses at once ("++"); each one counts.
    if (/^[-+=_]+$/.test(input)) {
      let next = scaleNow.current;
      for (const c of input) next = stepScale(next, c === "+" || c === "=" ? 1 : -1, servings);
      scaleTo(next);
    } else if (input === "0") scaleTo(1);
    else if (key.upArrow || input === "k") setOffset((o) => Math.max(0, o - 1));
    else if (key.downArrow || input === "j") setOffset((o) => Math.min(maxOffset, o + 1));
    else if (key.pageUp) setOffset((o) => Math.max(0, o - ctx.height + 1));
    else if (key.pageDown || input === " ") setOffset((o) => Math.min(maxOffset, o + ctx.height - 1));
    else if (key.home) setOffset(0);
    else if (key.end) setOffset(maxOffset);
  };
  if (!recipe) return <Loading what={`the recipe ${slug}`} error={error} />;
  return <Body lines={lines} offset={Math.min(offset, maxOffset)} ctx={ctx} />;
}

function PlanScreen({ ctx }: { ctx: Ctx }) {
  const [start, setStart] = useState<string | null>(null);
  const [entries, setEntries] = useState<PlanEntryOut[] | null>(null);
  const [error, setError] = useState<string>();
  const [cursor, setCursor] = useState(-1);
  const firstDay = useRef(0);

  useEffect(() => {
    ctx.source.firstDayOfWeek().then(
      (d) => {
        firstDay.current = d;
        setStart(weekStart(todayUtc(), d));
      },
      (e: unknown) => setError(errorText(e)),
    );
  }, [ctx.source]);
  useEffect(() => {
    if (!start) return;
    setEntries(null);
    ctx.source.entriesBetween(start, addDays(start, 6)).then(
      (e) => {
        setEntries(e);
        setCursor(-1);
      },
      (e: unknown) => setError(errorText(e)),
    );
  }, [start, ctx.source]);

  const lines = start && entries ? planLines(start, entries) : [];
  ctx.keys.current = (input, key) => {
    if (key.escape || input === "q") return ctx.back();
    if (!start) return;
    if (key.leftArrow || input === "<" || input === "[") setStart(addDays(start, -7));
    else if (key.rightArrow || input === ">" || input === "]") setStart(addDays(start, 7));
    else if (input === "t") setStart(weekStart(todayUtc(), firstDay.current));
    else if (key.upArrow) setCursor((c) => moveCursor(lines, c, -1));
    else if (key.downArrow) setCursor((c) => moveCursor(lines, c, 1));
    else if (key.return) {
      const k = lines[cursor]?.key;
      if (k?.startsWith("recipe:")) ctx.open({ kind: "recipe", slug: k.slice("recipe:".length) });
    }
  };
  if (!start || !entries) return <Loading what="the meal plan" error={error} />;
  return (
    <Box flexDirection="column">
      <Text bold>Week of {start}</Text>
      <Body
        lines={lines}
        cursor={cursor >= 0 ? cursor : undefined}
        offset={0}
        ctx={{ ...ctx, height: ctx.height - 1 }}
      />
    </Box>
  );
}

function ListsScreen({ ctx }: { ctx: Ctx }) {
  const [lists, setLists] = useState<ShoppingListSummaryOut[] | null>(null);
  const [error, setError] = useState<string>();
  const [cursor, setCursor] = useState(0);
  useEffect(() => {
    // Left before the lists came (q, or another tab): their answer must not open a list over the
    // screen the person went to.
    let shown = true;
    ctx.source.lists().then(
      (ls) => {
        if (!shown) return;
        // One list: straight to it (`larder list check` picks it the same way).
        if (ls.length === 1) ctx.open({ kind: "list", id: ls[0].id }, true);
        else setLists(ls);
      },
      (e: unknown) => shown && setError(errorText(e)),
    );
    return () => {
      shown = false;
    };
  }, [ctx.source]);
  ctx.keys.current = (input, key) => {
    if (key.escape || input === "q") return ctx.back();
    if (key.upArrow) setCursor((c) => Math.max(0, c - 1));
    else if (key.downArrow) setCursor((c) => Math.min(Math.max(0, (lists?.length ?? 1) - 1), c + 1));
    else if (key.return && lists?.[cursor]) ctx.open({ kind: "list", id: lists[cursor].id });
  };
  if (!lists) return <Loading what="the shopping lists" error={error} />;
  if (!lists.length) return <Text>No shopping lists yet (start one with: larder list new NAME).</Text>;
  const lines = lists.map((l) => ({ text: l.name ?? l.id, key: l.id }));
  return <Body lines={lines} cursor={cursor} ctx={ctx} />;
}

function ListScreen({ ctx, id }: { ctx: Ctx; id: string }) {
  const [list, setList] = useState<ShoppingListOut | null>(null);
  const [error, setError] = useState<string>();
  const [cursor, setCursor] = useState(0);
  const [busy, setBusy] = useState(false);
  const load = useCallback(
    () => ctx.source.list(id).then(setList, (e: unknown) => setError(errorText(e))),
    [ctx.source, id],
  );
  useEffect(() => {
    void load();
  }, [load]);

  ctx.keys.current = (input, key) => {
    if (key.escape || input === "q") return ctx.back();
    if (!list) return;
    const items = sortedItems(list);
    if (key.upArrow) setCursor((c) => Math.max(0, c - 1));
    else if (key.downArrow) setCursor((c) => Math.min(Math.max(0, items.length - 1), c + 1));
    else if (input === "r") void load();
    else if (input === " " && !busy) {
      const item = items[cursor];
      if (!item) return;
      setBusy(true);
      // The cursor stays on its row: the checked item sinks to the bottom and the next one comes up.
      ctx.source
        .setChecked(item, !item.checked)
        .then(() => {
          ctx.announce(`${item.checked ? "Unchecked" : "Checked"}: ${itemText(item)}`);
          return load();
        })
        .catch((e: unknown) => ctx.announce(`Could not save: ${errorText(e)}`))
        .finally(() => setBusy(false));
    }
  };
  if (!list) return <Loading what="the list" error={error} />;
  const lines = itemLines(list);
  const open = list.listItems.filter((i) => !i.checked).length;
  return (
    <Box flexDirection="column">
      <Text bold>
        {list.name ?? list.id}{" "}
        <Text dimColor>
          ({open} to get, {list.listItems.length - open} checked)
        </Text>
      </Text>
      {lines.length ? (
        <Body
          lines={lines}
          cursor={Math.min(cursor, lines.length - 1)}
          ctx={{ ...ctx, height: ctx.height - 1 }}
        />
      ) : (
        <Text dimColor>The list is empty.</Text>
      )}
    </Box>
  );
}

function ImportsScreen({
  ctx,
  jobs,
  live,
  start,
}: {
  ctx: Ctx;
  jobs: ImportJob[];
  live: Live<string | null>;
  start: (url: string) => void;
}) {
  const [cursor, setCursor] = useState(0);
  const [now, setNow] = useState(Date.now());
  const running = jobs.some((j) => j.state === "running");
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [running]);

  ctx.keys.current = (input, key) => {
    const prompt = live.ref.current;
    if (prompt !== null) {
      if (key.escape) live.set(null);
      else if (key.return) {
        const url = prompt.trim();
        // As the API reads it: the first http(s):// or www. address in the text. Without one the field
        // stays open with what was typed, rather than an import that can only fail.
        if (url && !/(?:https?:\/\/|www\.)\S/i.test(url))
          return ctx.announce("Not a web address: paste a recipe page's URL (https://…)");
        live.set(null);
        if (url) start(url);
      } else {
        const next = editText(prompt, input, key, true);
        if (next !== null) live.set(next);
      }
      return;
    }
    if (key.escape || input === "q") return ctx.back();
    if (input === "i") live.set("");
    else if (key.upArrow) setCursor((c) => Math.max(0, c - 1));
    else if (key.downArrow) setCursor((c) => Math.min(Math.max(0, jobs.length - 1), c + 1));
    else if (key.return) {
      const job = [...jobs].reverse()[cursor];
      if (job?.slug) ctx.open({ kind: "recipe", slug: job.slug });
    }
  };

  const lines: Line[] = [...jobs].reverse().map((j) => {
    const secs = Math.max(0, Math.round(((j.finished ?? now) - j.started) / 1000));
    const what =
      j.state === "running"
        ? `importing… ${secs}s`
        : j.state === "done"
          ? `imported as ${j.slug}`
          : `failed: ${j.error ?? "unknown error"}`;
    return {
      text: `${j.state === "running" ? "…" : j.state === "done" ? "ok" : "!!"} ${j.url} — ${what}`,
      key: String(j.id),
      dim: j.state === "running",
    };
  });
  return (
    <Box flexDirection="column">
      {live.value !== null ? (
        <Text>
          Recipe URL: {live.value}
          {ctx.plain ? "" : "▏"}
        </Text>
      ) : (
        <Text dimColor>Press i to paste a recipe URL.</Text>
      )}
      {lines.length ? (
        <Body
          lines={lines}
          cursor={Math.min(cursor, lines.length - 1)}
          ctx={{ ...ctx, height: ctx.height - 1 }}
        />
      ) : (
        <Text dimColor>No imports yet in this session.</Text>
      )}
    </Box>
  );
}

function HelpScreen({
  screen,
  ctx,
}: {
  screen: Screen["kind"];
  ctx: Pick<Ctx, "plain" | "width" | "height">;
}) {
  const rows = [...HELP[screen], ...GLOBAL_HELP];
  const keyWidth = Math.max(...rows.map(([k]) => k.length)) + 2;
  const lines: Line[] = [
    { text: "Keys", bold: true },
    ...HELP[screen].map(([k, v]) => ({ text: `${k.padEnd(keyWidth)}${v}` })),
    { text: "" },
    { text: "Everywhere", bold: true },
    ...GLOBAL_HELP.map(([k, v]) => ({ text: `${k.padEnd(keyWidth)}${v}` })),
    { text: "" },
    { text: "Press any key to close this help.", dim: true },
  ];
  return <Body lines={lines} ctx={ctx} />;
}

export interface AppProps {
  source: TuiSource;
  plain?: boolean;
  initial?: Screen;
}

export function App({ source, plain = false, initial = { kind: "search" } }: AppProps) {
  const { exit } = useApp();
  const { columns, rows } = useSize();
  const [stack, setStack] = useState<Screen[]>([initial]);
  const [help, setHelp] = useState(false);
  const [message, setMessage] = useState("");
  const query = useLive("");
  const [jobs, setJobs] = useState<ImportJob[]>([]);
  const prompt = useLive<string | null>(null);
  const nextJob = useRef(1);
  const screenKeys = useRef<((input: string, key: Key) => void) | null>(null);
  const screen = stack[stack.length - 1];

  const stackNow = useRef(stack);
  stackNow.current = stack;
  // `replacing`: the screen this one takes the place of, if it is still on top. A screen's late answer
  // (the one shopping list, opened in its place) can come after the person left it, and even after
  // the next screen is drawn but before the old one's effects are cleaned up: then the top is another
  // screen, which stays.
  const open = useCallback((s: Screen, replacing?: Screen) => {
    setMessage("");
    setStack((st) => {
      if (!replacing) return [...st, s];
      return st[st.length - 1] === replacing ? [...st.slice(0, -1), s] : st;
    });
  }, []);
  // Back one screen; from the first screen of another tab (Tab, `p`, `l`, `i`) back to the first tab,
  // so only the first screen quits. exit() is called outside a state updater, which must stay pure.
  const back = useCallback(() => {
    setMessage("");
    const st = stackNow.current;
    if (st.length > 1) setStack(st.slice(0, -1));
    else if (st[0].kind !== initial.kind) setStack([initial]);
    else exit();
  }, [exit, initial]);
  const toTab = (kind: (typeof TABS)[number]["kind"]) => {
    setMessage("");
    setStack([{ kind }]);
  };
  const startImport = useCallback(
    (url: string) => {
      const id = nextJob.current++;
      setJobs((js) => [...js, { id, url, state: "running", started: Date.now() }]);
      setMessage(`Importing ${url}…`);
      source.importUrl(url).then(
        (slug) => {
          setJobs((js) =>
            js.map((j) => (j.id === id ? { ...j, state: "done", slug, finished: Date.now() } : j)),
          );
          setMessage(`Imported ${url} as ${slug}.`);
        },
        (e: unknown) => {
          setJobs((js) =>
            js.map((j) =>
              j.id === id ? { ...j, state: "failed", error: errorText(e), finished: Date.now() } : j,
            ),
          );
          setMessage(`Import failed: ${errorText(e)}`);
        },
      );
    },
    [source],
  );

  const inUrlField = () => screen.kind === "imports" && prompt.ref.current !== null;
  useKeys((input, key) => {
    if (help) {
      setHelp(false);
      return;
    }
    if (input === "?" && !inUrlField()) return setHelp(true);
    const tabKind = screen.kind === "recipe" ? null : screen.kind === "list" ? "lists" : screen.kind;
    if (key.tab) {
      const at = Math.max(
        0,
        TABS.findIndex((t) => t.kind === tabKind),
      );
      const next = TABS[(at + (key.shift ? TABS.length - 1 : 1)) % TABS.length];
      return toTab(next.kind);
    }
    screenKeys.current?.(input, key);
    if (screen.kind === "search" || inUrlField()) return;
    if (input === "/") toTab("search");
    else if (input === "p" && screen.kind !== "plan") toTab("plan");
    else if (input === "l" && screen.kind !== "lists" && screen.kind !== "list") toTab("lists");
    else if (input === "i" && screen.kind !== "imports") {
      toTab("imports");
      prompt.set("");
    }
  });

  // Rows: tab bar, rule, body, rule, message and keys; one spare row, or Ink redraws the whole screen.
  const chrome = plain ? 3 : 5;
  const ctx: Ctx = {
    source,
    plain,
    width: Math.max(20, columns - 1),
    height: Math.max(3, rows - 1 - chrome),
    keys: screenKeys,
    // Bound to the screen this render shows: a replace from it is of that screen only.
    open: (s, replace) => open(s, replace ? screen : undefined),
    back,
    announce: setMessage,
  };
  const current = screen.kind === "list" ? "lists" : screen.kind;
  const tabBar = TABS.map((t) =>
    t.kind === current ? (plain ? `[${t.label}]` : `‹${t.label}›`) : plain ? t.label : ` ${t.label} `,
  ).join(plain ? " " : "");
  const rule = "─".repeat(ctx.width);

  let body;
  if (screen.kind === "search") body = <SearchScreen ctx={ctx} live={query} />;
  else if (screen.kind === "recipe") body = <RecipeScreen key={screen.slug} ctx={ctx} slug={screen.slug} />;
  else if (screen.kind === "plan") body = <PlanScreen ctx={ctx} />;
  else if (screen.kind === "lists") body = <ListsScreen ctx={ctx} />;
  else if (screen.kind === "list") body = <ListScreen key={screen.id} ctx={ctx} id={screen.id} />;
  else body = <ImportsScreen ctx={ctx} jobs={jobs} live={prompt} start={startImport} />;

  return (
    <Box flexDirection="column" width={columns}>
      <Text bold wrap="truncate-end">
        {truncate(`Larder · ${tabBar}${source.mode === "server" ? " · via server" : ""}`, ctx.width)}
      </Text>
      {plain ? null : <Text dimColor>{rule}</Text>}
      <Box flexDirection="column" height={ctx.height}>
        {help ? <HelpScreen screen={screen.kind} ctx={ctx} /> : null}
        {/* Hidden, not unmounted, under the help: closing it shows the screen as it was, not reloaded. */}
        <Box display={help ? "none" : "flex"} flexDirection="column">
          {body}
        </Box>
      </Box>
      {plain ? null : <Text dimColor>{rule}</Text>}
      <Text wrap="truncate-end">{truncate(message || " ", ctx.width)}</Text>
      <Text dimColor wrap="truncate-end">
        {truncate(help ? "any key: close help" : FOOTER[screen.kind], ctx.width)}
      </Text>
    </Box>
  );
}
