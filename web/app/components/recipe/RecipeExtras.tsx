/** Notes and the nutrition table (spec §3: grams, except cholesterol and sodium in milligrams). */
import { useT } from "../../lib/i18n.js";
import type { RecipeView } from "../../lib/recipe-types.js";
import { useFormat } from "../../lib/use-format.js";

export function RecipeNotes({ notes }: { notes: RecipeView["notes"] }) {
  const t = useT("recipe");
  if (!notes.length) return null;
  return (
    <section className="recipe__notes" aria-labelledby="notes-title">
      <h2 id="notes-title">{t("notes")}</h2>
      {notes.map((note) => (
        <div className="note" key={note.key}>
          {note.title ? <h3 className="note__title">{note.title}</h3> : null}
          <div className="prose" dangerouslySetInnerHTML={{ __html: note.html }} />
        </div>
      ))}
    </section>
  );
}

export function NutritionTable({
  rows,
  id = "nutrition-title",
}: {
  rows: RecipeView["nutrition"];
  id?: string;
}) {
  const t = useT("recipe");
  const f = useFormat();
  if (!rows.length) return null;
  return (
    <>
      <h2 id={id}>{t("nutrition")}</h2>
      <table className="nutrition">
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{t(`nutrients.${row.key}`)}</th>
              <td>
                <bdi>{f.quantity(row.value)}</bdi>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
