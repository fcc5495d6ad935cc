/**
 * Times, servings and yield, with the servings scaler (spec §9: scaled amounts as fractions up to tenths).
 * Without servings the scaler multiplies the batch instead. Recipes whose ingredients are plain text
 * (`settings.disableAmount`) have nothing to scale, so the scaler is not shown.
 */
import { ActionIcon, Button } from "@mantine/core";
import { ClockIcon, ServingsIcon } from "../icons.js";
import { useT } from "../../lib/i18n.js";
import { formatQuantity, scaledCount } from "../../lib/scale.js";
import type { RecipeView } from "../../lib/recipe-types.js";
import { MinusIcon, PlusIcon } from "./icons.js";
import { useFormat } from "../../lib/use-format.js";

export interface ScalerProps {
  /** The recipe's servings; 0 = none given (then the scaler counts batches). */
  base: number;
  scale: number;
  onScale: (scale: number) => void;
}

export function Scaler({ base, scale, onScale }: ScalerProps) {
  const t = useT("recipe");
  const f = useFormat();
  const unit = base > 0 ? base : 1;
  const count = Math.round(unit * scale * 100) / 100;
  // Whole servings up and down; below one serving, halves (a half batch of a 1-serving recipe).
  const down = count > 1 ? Math.ceil(count) - 1 : count / 2;
  const up = Math.floor(count) + 1;
  return (
    <div className="scaler" role="group" aria-label={t("scale.label")}>
      <ActionIcon
        variant="light"
        className="no-print"
        aria-label={t("scale.decrease")}
        onClick={() => onScale(down / unit)}
        disabled={count <= 0.25}
      >
        <MinusIcon />
      </ActionIcon>
      <output className="scaler__value" data-testid="servings" aria-live="polite">
        {base > 0
          ? t("servingsCount", { count, value: f.quantity(formatQuantity(count)) })
          : `×${f.quantity(formatQuantity(scale))}`}
      </output>
      <ActionIcon
        variant="light"
        className="no-print"
        aria-label={t("scale.increase")}
        onClick={() => onScale(up / unit)}
      >
        <PlusIcon />
      </ActionIcon>
      {scale !== 1 ? (
        <Button variant="subtle" size="compact-sm" className="no-print" onClick={() => onScale(1)}>
          {t("scale.reset", { value: f.quantity(base > 0 ? formatQuantity(base) : "×1") })}
        </Button>
      ) : null}
    </div>
  );
}

export interface RecipeFactsProps {
  recipe: RecipeView;
  scale: number;
  onScale?: (scale: number) => void;
}

export function RecipeFacts({ recipe, scale, onScale }: RecipeFactsProps) {
  const t = useT("recipe");
  const f = useFormat();
  const canScale = !!onScale && !recipe.settings.disableAmount;
  const servingsText = t("servingsCount", {
    count: recipe.servings,
    value: f.quantity(formatQuantity(recipe.servings)),
  });
  let yieldText = [
    recipe.yieldQuantity ? f.quantity(scaledCount(recipe.yieldQuantity, scale)) : "",
    recipe.yieldUnit ?? "",
  ]
    .filter(Boolean)
    .join(" ");
  // "4 servings" as the yield says nothing the servings line does not (and would not scale).
  if (!recipe.yieldQuantity && recipe.servings && yieldText.toLowerCase() === servingsText.toLowerCase())
    yieldText = "";
  return (
    <div className="facts-block">
      {recipe.times.length || recipe.servings || yieldText ? (
        <dl className="facts">
          {recipe.times.map((fact) => (
            <div className="fact" key={fact.key}>
              <dt>
                <ClockIcon />
                {t(`times.${fact.key}`)}
              </dt>
              <dd>
                <bdi>{f.duration(fact.value)}</bdi>
              </dd>
            </div>
          ))}
          {recipe.servings && !canScale ? (
            <div className="fact">
              <dt>
                <ServingsIcon />
                {t("servings")}
              </dt>
              <dd>{servingsText}</dd>
            </div>
          ) : null}
          {yieldText ? (
            <div className="fact">
              <dt>
                <ServingsIcon />
                {t("yield")}
              </dt>
              <dd data-testid="yield">
                <bdi>{yieldText}</bdi>
              </dd>
            </div>
          ) : null}
        </dl>
      ) : null}
      {canScale && onScale ? <Scaler base={recipe.servings} scale={scale} onScale={onScale} /> : null}
    </div>
  );
}
