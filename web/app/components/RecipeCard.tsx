/** A recipe card of the group home grid: image, name, clamped description, up to 2 tag chips. */
import { Link } from "@remix-run/react";
import { Chips, type ChipItem } from "./Chips.js";
import { RecipeImage } from "./RecipeImage.js";

export interface RecipeCardData {
  id: string;
  slug: string;
  name: string;
  /** Plain text (markdown already stripped on the server). */
  description: string;
  image: string | null;
  tags: ChipItem[];
  totalTime: string | null;
}

export function RecipeCard({
  recipe,
  groupSlug,
  eager,
}: {
  recipe: RecipeCardData;
  groupSlug: string;
  eager?: boolean;
}) {
  const href = `/g/${groupSlug}/r/${encodeURIComponent(recipe.slug)}`;
  return (
    <article className="card">
      <Link to={href} className="card__media" tabIndex={-1} aria-hidden="true">
        <RecipeImage recipeId={recipe.id} image={recipe.image} size="min-original" alt="" eager={eager} />
      </Link>
      <div className="card__body">
        <h2 className="card__title">
          <Link to={href}>{recipe.name}</Link>
        </h2>
        {recipe.description ? <p className="card__description">{recipe.description}</p> : null}
      </div>
      <div className="card__footer">
        <Chips items={recipe.tags} groupSlug={groupSlug} param="tags" limit={2} truncate small label="Tags" />
      </div>
    </article>
  );
}
