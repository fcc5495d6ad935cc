/** Share links of a group's recipes (`groups/<g>/shares.json`, mealie-api-notes §4.10). */
import { z } from "zod";

export const ShareRecord = z.object({
  /** The token: a UUID, as Mealie. */
  id: z.string(),
  recipeId: z.string(),
  createdAt: z.string(),
  /** Larder honours it: an expired link answers 404 (mealie-api-notes §17). */
  expiresAt: z.string(),
});
export type ShareRecord = z.infer<typeof ShareRecord>;

export const SharesDoc = z.object({ shares: z.array(ShareRecord).default([]) });
export type SharesDoc = z.infer<typeof SharesDoc>;
