/**
 * The match metric of ../shared/fixtures/recipe-pages/SOURCE.md: per-field strict and lenient rates over
 * the fixtures whose expected JSON has the field; a null expectation is matched by null or absent.
 */
export const FIELDS = ["title", "ingredients", "instructions_list", "total_time", "yields", "image"] as const;
export type Field = (typeof FIELDS)[number];

export interface Observed {
  title: string | null;
  ingredients: string[];
  instructions_list: string[];
  total_time: number | null;
  yields: string | null;
  image: string | null;
}

const ws = (s: string) => s.replace(/\s+/g, " ").trim();

function f1(expected: string[], got: string[]): number {
  if (expected.length === 0 && got.length === 0) return 1;
  const pool = [...got];
  let hit = 0;
  for (const e of expected) {
    const i = pool.indexOf(e);
    if (i >= 0) {
      hit++;
      pool.splice(i, 1);
    }
  }
  const p = got.length ? hit / got.length : 0;
  const r = expected.length ? hit / expected.length : 0;
  return p + r ? (2 * p * r) / (p + r) : 0;
}

export function lenientImage(u: string): string {
  return u.replace(/[?#].*$/, "").replace(/-\d+x\d+(?=\.[a-z0-9]+$)/i, "");
}

/** Strict match and lenient score (0–1) of one field, or null when the expectation lacks the field. */
export function score(
  field: Field,
  expected: Record<string, unknown>,
  got: Observed,
): { strict: boolean; lenient: number } | null {
  if (!(field in expected)) return null;
  const e = expected[field];
  if (e === null) {
    const g = got[field];
    const empty = g === null || g === undefined || (Array.isArray(g) && g.length === 0);
    return { strict: empty, lenient: empty ? 1 : 0 };
  }
  switch (field) {
    case "title": {
      const ok = typeof e === "string" && got.title !== null && ws(e) === ws(got.title);
      return { strict: ok, lenient: ok ? 1 : 0 };
    }
    case "ingredients":
    case "instructions_list": {
      const exp = (e as string[]).map(ws).filter(Boolean);
      const g = got[field].map(ws).filter(Boolean);
      const ok = exp.length === g.length && exp.every((x, i) => x === g[i]);
      return { strict: ok, lenient: f1(exp, g) };
    }
    case "total_time": {
      const ok = got.total_time === e;
      return { strict: ok, lenient: ok ? 1 : 0 };
    }
    case "yields": {
      const ok = got.yields === e;
      const lead = (s: string | null) => (s ? (/^\s*(\d+(?:\.\d+)?)/.exec(s)?.[1] ?? s) : null);
      return {
        strict: ok,
        lenient: ok || (lead(got.yields) !== null && lead(got.yields) === lead(e as string)) ? 1 : 0,
      };
    }
    case "image": {
      const ok = got.image === e;
      return {
        strict: ok,
        lenient: ok || (got.image !== null && lenientImage(got.image) === lenientImage(e as string)) ? 1 : 0,
      };
    }
  }
}

/** The fixture's metric fields that its upstream scraper reads from the DOM rather than schema.org. */
export function domFields(overridden: readonly string[]): Field[] {
  const map: Record<string, Field> = {
    title: "title",
    ingredients: "ingredients",
    instructions: "instructions_list",
    instructions_list: "instructions_list",
    total_time: "total_time",
    yields: "yields",
    image: "image",
  };
  return [...new Set(overridden.map((f) => map[f]).filter(Boolean))];
}
