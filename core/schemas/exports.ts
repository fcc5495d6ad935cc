/** Stored records of prepared exports (`.larder/exports/<group>/exports.json`): per machine, never in git. */
import { z } from "zod";
import { lazySchema } from "../util/lazy-schema.js";

export const GroupExportRecord = lazySchema(() =>
  z.object({
    id: z.string(),
    groupId: z.string(),
    name: z.string().default("Data Export"),
    filename: z.string(),
    /** Relative to the data folder, forward slashes. */
    path: z.string(),
    /** Bytes. */
    size: z.number().int().nonnegative(),
    createdAt: z.string(),
    expires: z.string(),
  }),
);
export type GroupExportRecord = z.infer<typeof GroupExportRecord>;

export const GroupExportsDoc = lazySchema(() =>
  z.object({ exports: z.array(GroupExportRecord).default([]) }),
);
export type GroupExportsDoc = z.infer<typeof GroupExportsDoc>;
