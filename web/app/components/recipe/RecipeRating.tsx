/**
 * The group's average rating (spec §9: 5 stars in half-steps), the viewer's own rating and the favourite
 * toggle (spec §4: then the user's ratings reload, which Remix does after the action). Own-group only.
 */
import { useState } from "react";
import { ActionIcon, Group, Text } from "@mantine/core";
import { Hint } from "../Hint.js";
import { StarInput, Stars, toHalfStars } from "../Stars.js";
import { useT } from "../../lib/i18n.js";
import { failedText, toast } from "../../lib/toast.js";
import { HeartFilledIcon, HeartIcon } from "./icons.js";
import { useRecipeIntent } from "./use-recipe-intent.js";
import { useFormat } from "../../lib/use-format.js";

export function AverageRating({ value }: { value: number | null }) {
  const t = useT("recipe");
  const f = useFormat();
  return (
    <Group gap={6} className="rating rating--average" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {t("rating.average")}
      </Text>
      <Stars value={value} label={t("rating.average")} data-testid="rating-average" />
      <Text size="sm" c="dimmed" data-testid="rating-average-text">
        {value ? t("rating.averageValue", { value: f.number(toHalfStars(value)) }) : t("rating.none")}
      </Text>
    </Group>
  );
}

export interface RecipeRatingProps {
  action: string;
  average: number | null;
  me: { rating: number | null; isFavorite: boolean };
}

export function RecipeRating({ action, average, me }: RecipeRatingProps) {
  const t = useT("recipe");
  const f = useFormat();
  const tc = useT("common");
  // Shown at once, before the server answers; the reloaded loader data then takes over.
  const [pending, setPending] = useState<{ rating?: number; isFavorite?: boolean }>({});
  const { run } = useRecipeIntent(action, (r) => {
    setPending({});
    if (!r.ok) toast.error(failedText(tc("errors.somethingWentWrong"), r));
  });
  const rating = pending.rating ?? me.rating ?? 0;
  const favorite = pending.isFavorite ?? me.isFavorite;
  const favLabel = favorite ? t("rating.unfavorite") : t("rating.favorite");
  return (
    <Group gap="md" className="recipe__rating no-print" wrap="wrap">
      <AverageRating value={average} />
      <Group gap={6} wrap="nowrap">
        <Text size="sm" c="dimmed" id="own-rating-label">
          {t("rating.yours")}
        </Text>
        <StarInput
          value={rating}
          onChange={(v) => {
            setPending((p) => ({ ...p, rating: v }));
            run("rate", { rating: String(v) });
          }}
          starLabel={(n) => t("rating.averageValue", { value: f.number(n) })}
          aria-labelledby="own-rating-label"
          data-testid="rating-own"
        />
      </Group>
      <Hint label={favLabel}>
        <ActionIcon
          variant={favorite ? "filled" : "light"}
          color="red"
          aria-label={favLabel}
          aria-pressed={favorite}
          data-testid="favorite"
          onClick={() => {
            setPending((p) => ({ ...p, isFavorite: !favorite }));
            run("favorite", { value: String(!favorite) });
          }}
        >
          {favorite ? <HeartFilledIcon /> : <HeartIcon />}
        </ActionIcon>
      </Hint>
    </Group>
  );
}
