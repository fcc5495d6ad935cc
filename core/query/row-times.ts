/**
 * Mealie's row timestamps on lists whose wire shape leaves them out (cookbooks, labels, webhooks…).
 * Every Mealie table has `created_at` and `update_at`, so a client may order or filter any list by
 * `createdAt`; the listed item carries its record's times under a symbol, which JSON never writes.
 * The lists that gained them pass `defaultOrderBy: null`, so that an unordered request keeps the
 * order they always had (the stored order) rather than turning to newest first.
 */
import { attr, type AttributeSpec } from "./attribute-table.js";

export const ROW_TIMES = Symbol("row times");

export interface RowTimes {
  createdAt?: string | null;
  updatedAt?: string | null;
}

export type Timed<T> = T & { [ROW_TIMES]?: RowTimes };

/** `item` with `record`'s times, for a list's `createdAt`/`updatedAt` paths. */
export function timed<T extends object>(item: T, record: RowTimes): Timed<T> {
  return Object.assign(item, { [ROW_TIMES]: { createdAt: record.createdAt, updatedAt: record.updatedAt } });
}

/** `createdAt`, `updatedAt` and Mealie's own spelling `updateAt`, read off a `timed` item (null otherwise). */
export function rowTimeAttributes<T>(): Record<string, AttributeSpec<Timed<T>>> {
  return {
    createdAt: attr.datetime((x: Timed<T>) => x[ROW_TIMES]?.createdAt ?? null),
    updatedAt: attr.datetime((x: Timed<T>) => x[ROW_TIMES]?.updatedAt ?? null),
    updateAt: attr.datetime((x: Timed<T>) => x[ROW_TIMES]?.updatedAt ?? null),
  };
}
