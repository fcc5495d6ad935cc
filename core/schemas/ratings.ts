/** A user's rating and favourite flag of one recipe: `groups/<g>/ratings.json` (ARCHITECTURE §2). */
import { z } from "zod";

export const RatingRecord = z.object({
  id: z.string(),
  userId: z.string(),
  recipeId: z.string(),
  /** 0–5; 0 and null both count as "not rated" for the recipe's average. */
  rating: z.number().nullable().default(null),
  isFavorite: z.boolean().default(false),
  createdAt: z.string().nullable().default(null),
  updatedAt: z.string().nullable().default(null),
});
export type RatingRecord = z.infer<typeof RatingRecord>;

export const RatingsDoc = z.object({ ratings: z.array(RatingRecord).default([]) });
export type RatingsDoc = z.infer<typeof RatingsDoc>;
