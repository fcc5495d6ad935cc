/** The recipe page body in view mode: ingredients (with tools), instructions with notes, nutrition. */
import { Chips } from "../Chips.js";
import { useT } from "../../lib/i18n.js";
import type { RecipeView } from "../../lib/recipe-types.js";
import { IngredientList } from "./IngredientList.js";
import { NutritionTable, RecipeNotes } from "./RecipeExtras.js";
import { StepList } from "./StepList.js";

export function RecipeBody({
  recipe,
  groupSlug,
  scale,
}: {
  recipe: RecipeView;
  groupSlug: string;
  scale: number;
}) {
  const t = useT("recipe");
  return (
    <div className="recipe__body">
      <section className="recipe__ingredients panel" aria-labelledby="ingredients-title">
        <h2 id="ingredients-title">{t("ingredients")}</h2>
        {recipe.ingredients.length ? (
          <IngredientList ingredients={recipe.ingredients} scale={scale} groupSlug={groupSlug} />
        ) : (
          <p className="muted">{t("noIngredients")}</p>
        )}
        {recipe.tools.length ? (
          <div className="recipe__tools">
            <h3 className="section-title">{t("organizers.tools")}</h3>
            <Chips items={recipe.tools} groupSlug={groupSlug} param="tools" label={t("organizers.tools")} />
          </div>
        ) : null}
      </section>

      <section className="recipe__instructions" aria-labelledby="instructions-title">
        <h2 id="instructions-title">{t("instructions")}</h2>
        <StepList steps={recipe.steps} ingredients={recipe.ingredients} scale={scale} groupSlug={groupSlug} />
        <RecipeNotes notes={recipe.notes} />
      </section>

      {/* The recipe's "show nutrition" setting (spec §3), as in Mealie: off hides the table. */}
      {recipe.settings.showNutrition && recipe.nutrition.length ? (
        <section className="recipe__nutrition panel" aria-labelledby="nutrition-title">
          <NutritionTable rows={recipe.nutrition} />
        </section>
      ) : null}
    </div>
  );
}
