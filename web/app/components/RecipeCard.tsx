/** A recipe card of the group home grid: image (icon fallback), name, clamped description, rating, 2 tag chips. */
import { Link } from "react-router";
import { useT } from "../lib/i18n.js";
import { Chips, type ChipItem } from "./Chips.js";
import { RecipeImage } from "./RecipeImage.js";
import { Stars } from "./Stars.js";
import { useFormat } from "../lib/use-format.js";

export interface RecipeCardData {
  id: string;
  slug: string;
  name: string;
  /** Plain text (markdown already stripped on the server). */
  description: string;
  image: string | null;
  tags: ChipItem[];
  totalTime: string | null;
  rating?: number | null;
}

/** Cards of a grid that a first screen shows: their pictures load at once, the first ones first. */
const EAGER_CARDS = 6;
const PRIORITY_CARDS = 2;

export function RecipeCard({
  recipe,
  groupSlug,
  position,
}: {
  recipe: RecipeCardData;
  groupSlug: string;
  /** The card's place in its grid (0 first), when it is one of a grid. */
  position?: number;
}) {
  const t = useT("shell");
  const f = useFormat();
  const href = `/g/${groupSlug}/r/${encodeURIComponent(recipe.slug)}`;
  return (
    <article className="card" data-testid="recipe-card">
      <Link to={href} className="card__media" tabIndex={-1} aria-hidden="true" prefetch="intent">
        <RecipeImage
          recipeId={recipe.id}
          image={recipe.image}
          size="min-original"
          alt=""
          eager={position !== undefined && position < EAGER_CARDS}
          priority={position !== undefined && position < PRIORITY_CARDS}
        />
      </Link>
      <div className="card__body">
        <h2 className="card__title">
          <Link to={href} prefetch="intent">
            <bdi>{recipe.name}</bdi>
          </Link>
        </h2>
        {recipe.description ? (
          <p className="card__description" dir="auto">
            {recipe.description}
          </p>
        ) : null}
      </div>
      <div className="card__footer">
        <Chips
          items={recipe.tags}
          groupSlug={groupSlug}
          param="tags"
          limit={2}
          truncate
          small
          label={t("home.tags")}
        />
        {recipe.rating ? (
          <Stars
            className="card__rating"
            value={recipe.rating}
            size="xs"
            label={t("common:rating", { value: f.number(recipe.rating) })}
          />
        ) : null}
      </div>
    </article>
  );
}
