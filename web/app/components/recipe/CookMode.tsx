/**
 * Cook mode (spec §4: toggles with view mode): large type for reading at arm's length, one step at a
 * time or all of them, each step with the ingredients it uses, and the screen kept awake where the
 * browser allows. Left and right arrow keys move between steps.
 */
import { useEffect, useMemo, useState } from "react";
import { Button, Group, SegmentedControl, Text } from "@mantine/core";
import { useT } from "../../lib/i18n.js";
import { clampStep, useWakeLock, wakeLockSupported } from "../../lib/cook.js";
import { useHydrated } from "../../lib/use-hydrated.js";
import type { RecipeView } from "../../lib/recipe-types.js";
import { IngredientList } from "./IngredientList.js";
import { StepRefs } from "./StepList.js";
import { ChevronLeftIcon, ChevronRightIcon } from "./icons.js";
import { useFormat } from "../../lib/use-format.js";

export interface CookModeProps {
  recipe: RecipeView;
  scale: number;
  groupSlug: string;
  onExit: () => void;
}

export function CookMode({ recipe, scale, groupSlug, onExit }: CookModeProps) {
  const t = useT("recipe");
  const f = useFormat();
  const [layout, setLayout] = useState<"one" | "all">("one");
  const [current, setCurrent] = useState(0);
  const hydrated = useHydrated();
  const steps = recipe.steps;
  const count = steps.length;
  useWakeLock(true);

  useEffect(() => {
    if (layout !== "one") return;
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      if (el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName))) return;
      const rtl = document.dir === "rtl";
      if (e.key === (rtl ? "ArrowLeft" : "ArrowRight")) setCurrent((i) => clampStep(i + 1, count));
      else if (e.key === (rtl ? "ArrowRight" : "ArrowLeft")) setCurrent((i) => clampStep(i - 1, count));
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [layout, count]);

  const shown = layout === "one" ? steps.slice(current, current + 1) : steps;
  const highlight = useMemo(
    () => new Set(layout === "one" ? (steps[current]?.refs ?? []) : []),
    [layout, steps, current],
  );

  return (
    <section className="cook" aria-label={t("cook.title", { name: recipe.name })} data-testid="cook-mode">
      <Group justify="space-between" className="cook__bar">
        <SegmentedControl
          value={layout}
          onChange={(v) => setLayout(v as "one" | "all")}
          data={[
            { value: "one", label: t("cook.oneStep") },
            { value: "all", label: t("cook.allSteps") },
          ]}
        />
        {hydrated && wakeLockSupported() ? (
          <Text size="sm" c="dimmed">
            {t("cook.awake")}
          </Text>
        ) : null}
        <Button variant="light" onClick={onExit}>
          {t("mode.exitCook")}
        </Button>
      </Group>
      <div className="cook__body">
        <aside className="cook__ingredients">
          <h2>{t("ingredients")}</h2>
          <IngredientList
            ingredients={recipe.ingredients}
            scale={scale}
            groupSlug={groupSlug}
            highlight={highlight}
          />
        </aside>
        <div className="cook__steps">
          {count === 0 ? <p>{t("noInstructions")}</p> : null}
          {shown.map((step) => {
            const n = steps.indexOf(step) + 1;
            return (
              <article
                className="cook__step"
                key={step.key}
                aria-live={layout === "one" ? "polite" : undefined}
              >
                {step.title ? <h2 className="section-title">{step.title}</h2> : null}
                <p className="cook__step-number">{t("stepOf", { n: f.number(n), total: f.number(count) })}</p>
                {step.summary ? <h3 className="cook__summary">{step.summary}</h3> : null}
                <div
                  className="cook__text prose"
                  dir="auto"
                  dangerouslySetInnerHTML={{ __html: step.html }}
                />
                <StepRefs step={step} ingredients={recipe.ingredients} scale={scale} groupSlug={groupSlug} />
              </article>
            );
          })}
          {layout === "one" && count > 0 ? (
            <Group justify="space-between" className="cook__nav">
              <Button
                variant="default"
                size="lg"
                leftSection={<ChevronLeftIcon />}
                disabled={current === 0}
                onClick={() => setCurrent((i) => clampStep(i - 1, count))}
              >
                {t("cook.previous")}
              </Button>
              {current < count - 1 ? (
                <Button
                  size="lg"
                  rightSection={<ChevronRightIcon />}
                  onClick={() => setCurrent((i) => clampStep(i + 1, count))}
                >
                  {t("cook.next")}
                </Button>
              ) : (
                <Button size="lg" onClick={onExit}>
                  {t("cook.done")}
                </Button>
              )}
            </Group>
          ) : null}
        </div>
      </div>
    </section>
  );
}
