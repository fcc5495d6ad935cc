/**
 * A Cooklang recipe (`.cook`) read into Mealie's shape. The syntax: `@ingredient{qty%unit}` (one word
 * without braces), `#cookware{}`, `~timer{qty%unit}` or `~name{…}`, `>> key: value` metadata or YAML
 * front matter, `= Section` lines, `> note` lines, `--` line comments and `[- block comments -]`.
 * Steps are paragraphs separated by blank lines.
 */
import type { Loose } from "../shared/clean.js";
import { frontMatter } from "../shared/entry.js";

export interface CooklangIngredient {
  name: string;
  quantity: string;
  unit: string;
  section: string | null;
}

export interface CooklangRecipe {
  metadata: Record<string, unknown>;
  ingredients: CooklangIngredient[];
  cookware: string[];
  steps: Array<{ section: string | null; text: string }>;
  notes: string[];
}

// A component: the sigil, then either a name running up to `{…}` (may hold spaces) or one word.
const COMPONENT = /([@#~])(?:([^@#~{}\n]*?)\{([^}]*)\}|([\p{L}\p{N}_-]+))/gu;

function splitAmount(raw: string): { quantity: string; unit: string } {
  const [q, ...u] = raw.split("%");
  return { quantity: (q ?? "").trim(), unit: u.join("%").trim() };
}

/** "1/2" stays a fraction, "1 1/2" too; Cooklang's "*" (scale-fixed) marker is dropped. */
function quantityText(q: string): string {
  return q.replace(/^=\s*/, "").replace(/\*$/, "").trim();
}

export function parseCooklang(source: string): CooklangRecipe {
  const { data, body } = frontMatter(source.replace(/\r\n?/g, "\n"));
  const metadata: Record<string, unknown> = { ...data };
  const withoutBlocks = body.replace(/\[-[\s\S]*?-\]/g, "");
  const ingredients: CooklangIngredient[] = [];
  const cookware: string[] = [];
  const steps: CooklangRecipe["steps"] = [];
  const notes: string[] = [];
  let section: string | null = null;
  let paragraph: string[] = [];

  const flush = () => {
    const text = paragraph.join(" ").replace(/\s+/g, " ").trim();
    paragraph = [];
    if (!text) return;
    let firstIngredientOfSection = true;
    const rendered = text.replace(
      COMPONENT,
      (_m, sigil: string, braced?: string, inner?: string, word?: string) => {
        const name = (braced ?? word ?? "").trim();
        const { quantity, unit } = splitAmount(inner ?? "");
        if (sigil === "@") {
          ingredients.push({
            name,
            quantity: quantityText(quantity),
            unit,
            section: firstIngredientOfSection ? section : null,
          });
          firstIngredientOfSection = false;
          return name;
        }
        if (sigil === "#") {
          if (name && !cookware.includes(name)) cookware.push(name);
          return name;
        }
        // A timer reads as its duration ("~{25%minutes}" → "25 minutes"), a named one with its name.
        const duration = [quantityText(quantity), unit].filter(Boolean).join(" ");
        return name && duration ? `${name} (${duration})` : duration || name;
      },
    );
    steps.push({ section, text: rendered });
    if (!firstIngredientOfSection) section = null;
  };

  for (const raw of withoutBlocks.split("\n")) {
    const line = raw.replace(/--.*$/, "").trimEnd();
    const meta = /^>>\s*([^:]+?)\s*:\s*(.*)$/.exec(line.trim());
    if (meta) {
      metadata[meta[1].trim()] = meta[2].trim();
      continue;
    }
    if (/^\s*>(?!>)/.test(line)) {
      flush();
      // A note may mention ingredients; it reads as plain text and adds none to the list.
      notes.push(
        line
          .replace(/^\s*>\s?/, "")
          .replace(COMPONENT, (_m, _s: string, braced?: string, _i?: string, word?: string) =>
            (braced ?? word ?? "").trim(),
          )
          .trim(),
      );
      continue;
    }
    const sec = /^\s*=+\s*(.*?)\s*=*\s*$/.exec(line);
    if (sec && line.trim().startsWith("=")) {
      flush();
      section = sec[1] || null;
      continue;
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    paragraph.push(line.trim());
  }
  flush();
  return { metadata, ingredients, cookware, steps, notes: notes.filter(Boolean) };
}

/** The line a person would write: "200 g flour", "salt", "2 eggs". */
export function ingredientLine(i: CooklangIngredient): string {
  return [i.quantity, i.unit, i.name].filter(Boolean).join(" ");
}

const first = (m: Record<string, unknown>, ...keys: string[]): unknown => {
  for (const k of keys) {
    const hit = Object.keys(m).find((x) => x.toLowerCase() === k);
    if (hit !== undefined && m[hit] !== undefined && m[hit] !== null && m[hit] !== "") return m[hit];
  }
  return undefined;
};

/** Metadata keys Cooklang's conventions name, as the loose values `cleanRecipe` takes. */
export function cooklangFields(m: Record<string, unknown>): Loose {
  const source = first(m, "source", "source.url", "url");
  return {
    title: first(m, "title", "name"),
    description: first(m, "description", "introduction"),
    servings: first(m, "servings", "serves", "yield"),
    tags: first(m, "tags"),
    categories: first(m, "course", "category", "categories", "cuisine"),
    totalTime: first(m, "time", "duration", "total time", "time required"),
    prepTime: first(m, "prep time", "time.prep", "prep_time"),
    cookTime: first(m, "cook time", "time.cook", "cook_time"),
    source: typeof source === "object" && source ? (source as Loose).url : source,
  };
}
