/** The recipe page body: ingredients (with section titles), instructions, notes, nutrition. */
import type { RecipePageData } from "../routes/g.$groupSlug.r.$slug.js";
import { Chips } from "./Chips.js";

export function RecipeBody({ recipe, groupSlug }: { recipe: RecipePageData; groupSlug: string }) {
  const hasIngredients = recipe.sections.some((s) => s.items.length > 0);
  return (
    <div className="recipe__body">
      <section className="recipe__ingredients panel" aria-labelledby="ingredients-title">
        <h2 id="ingredients-title">Ingredients</h2>
        {hasIngredients ? (
          recipe.sections.map((section, i) => (
            <div className="ingredient-section" key={i}>
              {section.title ? <h3 className="section-title">{section.title}</h3> : null}
              <ul className="ingredients">
                {section.items.map((item) => (
                  <li key={item.key} dangerouslySetInnerHTML={{ __html: item.html }} />
                ))}
              </ul>
            </div>
          ))
        ) : (
          <p className="muted">No ingredients.</p>
        )}
        {recipe.tools.length ? (
          <>
            <h3 className="section-title">Tools</h3>
            <Chips items={recipe.tools} groupSlug={groupSlug} param="tools" label="Tools" />
          </>
        ) : null}
      </section>

      <section className="recipe__instructions" aria-labelledby="instructions-title">
        <h2 id="instructions-title">Instructions</h2>
        {recipe.steps.length ? (
          <ol className="steps">
            {recipe.steps.map((step, i) => {
              const stepNumber = i + 1;
              return (
                <li className="step" key={step.key} value={stepNumber}>
                  {step.title ? <h3 className="section-title step__section">{step.title}</h3> : null}
                  <span className="step__number" aria-hidden="true">
                    {stepNumber}
                  </span>
                  <div className="step__content">
                    <span className="visually-hidden">Step {stepNumber}: </span>
                    {step.summary ? <strong className="step__summary">{step.summary}</strong> : null}
                    <div className="step__text prose" dangerouslySetInnerHTML={{ __html: step.html }} />
                  </div>
                </li>
              );
            })}
          </ol>
        ) : (
          <p className="muted">No instructions.</p>
        )}

        {recipe.notes.length ? (
          <section className="recipe__notes" aria-labelledby="notes-title">
            <h2 id="notes-title">Notes</h2>
            {recipe.notes.map((note) => (
              <div className="note" key={note.key}>
                {note.title ? <h3 className="note__title">{note.title}</h3> : null}
                <div className="prose" dangerouslySetInnerHTML={{ __html: note.html }} />
              </div>
            ))}
          </section>
        ) : null}
      </section>

      {recipe.nutrition.length ? (
        <section className="recipe__nutrition panel" aria-labelledby="nutrition-title">
          <h2 id="nutrition-title">Nutrition</h2>
          <table className="nutrition">
            <tbody>
              {recipe.nutrition.map((row) => (
                <tr key={row.label}>
                  <th scope="row">{row.label}</th>
                  <td>{row.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </div>
  );
}
