/**
 * Ingredients with their section titles, at a scale. User text reaches the page only as React text or
 * as the server-sanitised note HTML (spec §9: b, q, i, strong, sup); never as HTML built here.
 */
import type { ReactNode } from "react";
import { Link } from "react-router";
import { ingredientParts } from "../../lib/scale.js";
import type { ViewIngredient } from "../../lib/recipe-types.js";
import { useFormat } from "../../lib/use-format.js";

export function IngredientLine({
  ing,
  scale,
  groupSlug,
}: {
  ing: ViewIngredient;
  scale: number;
  groupSlug: string;
}) {
  const f = useFormat();
  // dir="auto": the line reads in its own script's direction (an English recipe on an Arabic page) while the
  // list keeps the page's alignment.
  if (!ing.parts)
    return <span className="ingredient__text" dir="auto" dangerouslySetInnerHTML={{ __html: ing.html }} />;
  const p = ingredientParts(ing.parts, scale);
  if (ing.written && scale === 1) {
    // As the author wrote it (React text, never HTML); its leading amount bold and in the page's number
    // format, as the other lines' ("1/2" and "½" both "¹/₂").
    const [amount, rest] = splitAmount(ing.written);
    const shown = amount && p.quantity ? f.quantity(p.quantity) : amount;
    return (
      <span className="ingredient__text" dir="auto">
        {shown ? (
          <>
            <strong className="ingredient__qty">
              <bdi>{shown}</bdi>
            </strong>{" "}
          </>
        ) : null}
        {rest}
      </span>
    );
  }
  const words: ReactNode[] = [];
  if (p.quantity)
    words.push(
      <strong className="ingredient__qty" key="q">
        <bdi>{f.quantity(p.quantity)}</bdi>
      </strong>,
    );
  if (p.unit)
    words.push(
      <span className="ingredient__unit" key="u">
        {p.unit}
      </span>,
    );
  if (p.food)
    words.push(
      <span className="ingredient__food" key="f">
        {p.food}
      </span>,
    );
  if (p.recipe) {
    words.push(
      <Link
        key="r"
        className="ingredient__recipe"
        to={`/g/${groupSlug}/r/${encodeURIComponent(p.recipe.slug)}`}
      >
        {p.recipe.name}
      </Link>,
    );
  }
  if (p.noteHtml)
    words.push(
      <span className="ingredient__note" key="n" dangerouslySetInnerHTML={{ __html: p.noteHtml }} />,
    );
  return (
    <span className="ingredient__text" dir="auto">
      {words.flatMap((w, i) => (i === 0 ? [w] : [" ", w]))}
    </span>
  );
}

const AMOUNT =
  /^((?:\d+(?:[.,]\d+)?(?:\s*\/\s*\d+)?|[½⅓⅔¼¾⅛⅜⅝⅞⅕⅖⅗⅘⅙⅚])(?:\s*[½⅓⅔¼¾⅛⅜⅝⅞]|\s+\d+\/\d+)?(?:\s*(?:-|–|to)\s*(?:\d+(?:[.,]\d+)?(?:\/\d+)?|[½⅓⅔¼¾⅛⅜⅝⅞]))?)\s+(.*)$/s;

/** A written line's leading amount ("1 1/2", "2-3", "½") and the rest; no amount: ["", line]. */
export function splitAmount(line: string): [string, string] {
  const m = AMOUNT.exec(line);
  return m ? [m[1], m[2]] : ["", line];
}

/** Ingredients grouped under the section titles they carry. */
export function groupSections(items: ViewIngredient[]): { title: string | null; items: ViewIngredient[] }[] {
  const sections: { title: string | null; items: ViewIngredient[] }[] = [];
  for (const ing of items) {
    if (ing.title || sections.length === 0) sections.push({ title: ing.title, items: [] });
    if (ing.html || ing.parts?.quantity || ing.parts?.food || ing.parts?.recipe)
      sections[sections.length - 1].items.push(ing);
  }
  return sections.filter((s) => s.items.length > 0 || s.title);
}

export interface IngredientListProps {
  ingredients: ViewIngredient[];
  scale: number;
  groupSlug: string;
  /** Heading level of section titles (h3 on the page, h4 inside cook mode's step panels). */
  headingLevel?: 3 | 4;
  /** Keys to mark (cook mode: the current step's ingredients). */
  highlight?: ReadonlySet<string>;
}

export function IngredientList({
  ingredients,
  scale,
  groupSlug,
  headingLevel = 3,
  highlight,
}: IngredientListProps) {
  const H = headingLevel === 3 ? "h3" : "h4";
  return (
    <>
      {groupSections(ingredients).map((section, i) => (
        <div className="ingredient-section" key={i}>
          {section.title ? <H className="section-title">{section.title}</H> : null}
          <ul className="ingredients">
            {section.items.map((ing) => (
              <li key={ing.key} className={highlight?.has(ing.key) ? "is-highlighted" : undefined}>
                <IngredientLine ing={ing} scale={scale} groupSlug={groupSlug} />
              </li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}
