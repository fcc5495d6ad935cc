/**
 * Foods and units of a group (foods.json, units.json). Recipe files name them, so a rename or merge
 * is followed by rewriting the recipes that use them (the caller does that through the recipe service).
 */
import { z } from "zod";
import type { GroupData } from "../groups/registry.js";
import { BadRequestError, NotFoundError, ValidationError } from "../errors.js";
import { FoodRecord, UnitRecord } from "../schemas/records.js";
import type { Vocabulary } from "../recipes/doc.js";
import { isUuid, newId } from "../util/ids.js";
import { lazySchema } from "../util/lazy-schema.js";

const name = lazySchema(() =>
  z.string().trim().min(1, "This Field is Required").max(255, "Must Be At Most 255 Characters"),
);
const aliases = lazySchema(() => z.array(z.object({ name: z.string().trim().min(1) }).loose()).default([]));
const extras = lazySchema(() =>
  z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((e) => Object.fromEntries(Object.entries(e ?? {}).map(([k, v]) => [k, String(v)]))),
);

export const FoodIn = lazySchema(() =>
  z
    .object({
      name,
      pluralName: z.string().nullish(),
      description: z.string().nullish(),
      extras,
      labelId: z.string().nullish(),
      aliases,
      householdsWithIngredientFood: z.array(z.string()).nullish(),
    })
    .loose(),
);
export const UnitIn = lazySchema(() =>
  z
    .object({
      name,
      pluralName: z.string().nullish(),
      description: z.string().nullish(),
      extras,
      fraction: z.boolean().nullish(),
      abbreviation: z.string().nullish(),
      pluralAbbreviation: z.string().nullish(),
      useAbbreviation: z.boolean().nullish(),
      aliases,
      standardQuantity: z.number().nullish(),
      standardUnit: z.string().nullish(),
    })
    .loose(),
);

type Kind = "foods" | "units";
type Rec<K extends Kind> = K extends "foods" ? FoodRecord : UnitRecord;

function docOf<K extends Kind>(g: GroupData, kind: K) {
  return (kind === "foods" ? g.foods : g.units) as unknown as {
    data: Record<K, Rec<K>[]>;
    update(fn: (d: Record<K, Rec<K>[]>) => void): Promise<void>;
    replace(fn: (d: Readonly<Record<K, Rec<K>[]>>) => Record<K, Rec<K>[]>): Promise<void>;
  };
}

function toRecord<K extends Kind>(kind: K, input: unknown, base: Partial<Rec<K>>): Rec<K> {
  if (kind === "foods") {
    const d = FoodIn.parse(input);
    return FoodRecord.parse({
      ...base,
      name: d.name,
      pluralName: d.pluralName ?? null,
      description: d.description ?? "",
      extras: d.extras,
      labelId: d.labelId ?? null,
      aliases: d.aliases.map((a) => ({ name: a.name })),
      householdsWithIngredientFood:
        d.householdsWithIngredientFood ??
        (base as unknown as Partial<FoodRecord>).householdsWithIngredientFood ??
        [],
    }) as Rec<K>;
  }
  const d = UnitIn.parse(input);
  return UnitRecord.parse({
    ...base,
    name: d.name,
    pluralName: d.pluralName ?? null,
    description: d.description ?? "",
    extras: d.extras,
    fraction: d.fraction ?? true,
    abbreviation: d.abbreviation ?? "",
    pluralAbbreviation: d.pluralAbbreviation ?? "",
    useAbbreviation: d.useAbbreviation ?? false,
    aliases: d.aliases.map((a) => ({ name: a.name })),
    standardQuantity: d.standardQuantity ?? null,
    standardUnit: d.standardUnit ?? null,
  }) as Rec<K>;
}

/**
 * A food's label must be one of its own group's labels: another group's id (or a made-up one) would
 * show a label the group cannot see or edit, and leak that it exists.
 */
function assertOwnLabel(g: GroupData, rec: unknown): void {
  const labelId = (rec as { labelId?: string | null }).labelId;
  if (labelId === undefined || labelId === null) return;
  const lower = labelId.toLowerCase();
  if (!g.labels.data.labels.some((l) => l.id.toLowerCase() === lower)) {
    throw new ValidationError([
      { loc: ["body", "labelId"], msg: "Label not found in this group", type: "value_error" },
    ]);
  }
}

interface Lookup {
  byId: Map<string, unknown>;
  /** Lower-cased name → the first record of that name, as a walk in order would find it. */
  byName: Map<string, unknown>;
}

export class VocabularyService {
  /**
   * Each list's records by id and by name, made on first use. Every change gives the document a new
   * list (JsonDoc's update and replace, a reload after a hand edit), so a list's lookup never goes
   * stale. Saving a recipe looks up each ingredient's food and unit: a walk over a group's 1,500 foods
   * for each, with a lower-cased copy of every name, was a large part of a big import (decision 0221).
   */
  private readonly lookups = new WeakMap<readonly unknown[], Lookup>();

  list<K extends Kind>(g: GroupData, kind: K): Rec<K>[] {
    return docOf(g, kind).data[kind];
  }

  private lookup<K extends Kind>(g: GroupData, kind: K): Lookup {
    const list = this.list(g, kind);
    let found = this.lookups.get(list);
    if (!found) {
      found = { byId: new Map(), byName: new Map() };
      for (const r of list) {
        if (!found.byId.has(r.id)) found.byId.set(r.id, r);
        const name = r.name.toLowerCase();
        if (!found.byName.has(name)) found.byName.set(name, r);
      }
      this.lookups.set(list, found);
    }
    return found;
  }

  get<K extends Kind>(g: GroupData, kind: K, id: string): Rec<K> {
    const r = isUuid(id) ? (this.lookup(g, kind).byId.get(id) as Rec<K> | undefined) : undefined;
    if (!r) throw new NotFoundError();
    return r;
  }

  /** Whether the group has a record of this id (exactly as written). */
  has(g: GroupData, kind: Kind, id: string): boolean {
    return this.lookup(g, kind).byId.has(id);
  }

  byName<K extends Kind>(g: GroupData, kind: K, n: string): Rec<K> | null {
    return (this.lookup(g, kind).byName.get(n.trim().toLowerCase()) as Rec<K> | undefined) ?? null;
  }

  async create<K extends Kind>(g: GroupData, kind: K, input: unknown): Promise<Rec<K>> {
    const now = new Date().toISOString();
    const rec = toRecord(kind, input, { id: newId(), createdAt: now, updatedAt: now } as Partial<Rec<K>>);
    assertOwnLabel(g, rec);
    if (this.byName(g, kind, rec.name)) {
      throw new BadRequestError(`'${rec.name}' already exists`, {
        message: "An item with this name already exists",
        error: true,
        exception: `duplicate name ${rec.name}`,
      });
    }
    // One record added, changed or removed: the group's others are kept, not copied (JsonDoc.replace).
    await docOf(g, kind).replace((d) => ({ ...d, [kind]: [...d[kind], rec] }));
    return rec;
  }

  /**
   * Several records in one change of the document (an import's foods or units): create() writes the
   * whole document, so a backup's thousand foods were a thousand writes. A name the group has, or one
   * given twice, is skipped; an item that is not a valid record is refused. Returns what was made.
   */
  async createMany<K extends Kind>(
    g: GroupData,
    kind: K,
    inputs: readonly unknown[],
  ): Promise<{ created: Rec<K>[]; refused: { index: number; error: unknown }[] }> {
    const now = new Date().toISOString();
    const names = new Set(this.list(g, kind).map((x) => x.name.toLowerCase()));
    const created: Rec<K>[] = [];
    const refused: { index: number; error: unknown }[] = [];
    inputs.forEach((input, index) => {
      try {
        const rec = toRecord(kind, input, { id: newId(), createdAt: now, updatedAt: now } as Partial<Rec<K>>);
        assertOwnLabel(g, rec);
        const lower = rec.name.toLowerCase();
        if (names.has(lower)) return;
        names.add(lower);
        created.push(rec);
      } catch (error) {
        refused.push({ index, error });
      }
    });
    if (created.length > 0) await docOf(g, kind).replace((d) => ({ ...d, [kind]: [...d[kind], ...created] }));
    return { created, refused };
  }

  async update<K extends Kind>(
    g: GroupData,
    kind: K,
    id: string,
    input: unknown,
  ): Promise<{ record: Rec<K>; old: Rec<K> }> {
    const old = this.get(g, kind, id);
    const rec = toRecord(kind, input, { ...old, updatedAt: new Date().toISOString() });
    assertOwnLabel(g, rec);
    const clash = this.byName(g, kind, rec.name);
    if (clash && clash.id !== id) throw new BadRequestError(`'${rec.name}' already exists`);
    await docOf(g, kind).replace((d) => ({ ...d, [kind]: d[kind].map((x) => (x.id === id ? rec : x)) }));
    return { record: rec, old };
  }

  async remove<K extends Kind>(g: GroupData, kind: K, id: string): Promise<Rec<K>> {
    const old = this.get(g, kind, id);
    await docOf(g, kind).replace((d) => ({ ...d, [kind]: d[kind].filter((x) => x.id !== id) }));
    return old;
  }

  /** Seed a new group's vocabulary from lists (templates/seed/<locale>/). Existing names are skipped. */
  async seed<K extends Kind>(g: GroupData, kind: K, items: unknown[]): Promise<number> {
    const now = new Date().toISOString();
    let added = 0;
    await docOf(g, kind).update((d) => {
      const names = new Set(d[kind].map((x) => x.name.toLowerCase()));
      for (const item of items) {
        const raw = item as Record<string, unknown>;
        const input = {
          ...raw,
          aliases: ((raw.aliases as unknown[]) ?? []).map((a) => (typeof a === "string" ? { name: a } : a)),
        };
        const rec = toRecord(kind, input, { id: newId(), createdAt: now, updatedAt: now } as Partial<Rec<K>>);
        if (names.has(rec.name.toLowerCase())) continue;
        names.add(rec.name.toLowerCase());
        d[kind].push(rec);
        added++;
      }
    });
    return added;
  }
}

/** The vocabulary the file grammar reads ingredient lines with. */
export function vocabularyOf(g: GroupData): Vocabulary {
  return {
    units: g.units.data.units.map((u) => ({
      name: u.name,
      pluralName: u.pluralName,
      abbreviation: u.abbreviation,
      pluralAbbreviation: u.pluralAbbreviation,
      aliases: u.aliases.map((a) => a.name),
      useAbbreviation: u.useAbbreviation,
      fraction: u.fraction,
    })),
    foods: g.foods.data.foods.map((f) => ({
      name: f.name,
      pluralName: f.pluralName,
      aliases: f.aliases.map((a) => a.name),
    })),
  };
}
