/** Instructions: section titles, summaries, the sanitised Markdown text, and the ingredients each step uses. */
import { useT } from "../../lib/i18n.js";
import type { ViewIngredient, ViewStep } from "../../lib/recipe-types.js";
import { IngredientLine } from "./IngredientList.js";
import { useFormat } from "../../lib/use-format.js";

export interface StepListProps {
  steps: ViewStep[];
  ingredients: ViewIngredient[];
  scale: number;
  groupSlug: string;
  /** Show each step's linked ingredients (view and cook modes; print leaves them out). */
  showRefs?: boolean;
}

/** The ingredients a step references, in recipe order. */
export function refsOf(step: ViewStep, ingredients: ViewIngredient[]): ViewIngredient[] {
  const keys = new Set(step.refs);
  return ingredients.filter((i) => keys.has(i.key));
}

export function StepRefs({
  step,
  ingredients,
  scale,
  groupSlug,
}: { step: ViewStep } & Omit<StepListProps, "steps">) {
  const t = useT("recipe");
  const used = refsOf(step, ingredients);
  if (!used.length) return null;
  return (
    <div className="step__refs">
      <span className="step__refs-label">{t("uses")}</span>
      <ul>
        {used.map((ing) => (
          <li key={ing.key}>
            <IngredientLine ing={ing} scale={scale} groupSlug={groupSlug} />
          </li>
        ))}
      </ul>
    </div>
  );
}

export function StepList({ steps, ingredients, scale, groupSlug, showRefs = true }: StepListProps) {
  const t = useT("recipe");
  const f = useFormat();
  if (!steps.length) return <p className="muted">{t("noInstructions")}</p>;
  return (
    <ol className="steps">
      {steps.map((step, i) => {
        const n = i + 1;
        return (
          <li className="step" key={step.key} value={n}>
            {step.title ? <h3 className="section-title step__section">{step.title}</h3> : null}
            <span className="step__number" aria-hidden="true">
              {f.number(n)}
            </span>
            <div className="step__content">
              <span className="visually-hidden">{t("step", { n: f.number(n) })}: </span>
              {step.summary ? (
                <strong className="step__summary" dir="auto">
                  {step.summary}
                </strong>
              ) : null}
              <div className="step__text prose" dir="auto" dangerouslySetInnerHTML={{ __html: step.html }} />
              {showRefs ? (
                <StepRefs step={step} ingredients={ingredients} scale={scale} groupSlug={groupSlug} />
              ) : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
