/**
 * Multi-purpose labels of a group (mealie-api-notes §4.4; `labels.json`) and the seeders that fill
 * a group's labels, units and foods from Larder's own lists in `templates/seed/<locale>/`.
 */
import { rowTimeAttributes, timed, type Timed } from "../query/row-times.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import type { GroupData } from "../groups/registry.js";
import { BadRequestError, NotFoundError, UnauthorizedError, ValidationError } from "../errors.js";
import { LabelRecord } from "../schemas/records.js";
import type { LabelSummary } from "../schemas/recipe.js";
import { presentLabel } from "../presenters/vocabulary.js";
import { AttributeTable, attr } from "../query/attribute-table.js";
import { listQuery } from "../query/list.js";
import type { ListQuery, Page } from "../query/list-query.js";
import { textRanker } from "../search/text-search.js";
import { seedGroup } from "../foods/seed.js";
import { findTemplatesDir } from "../storage/data-folder.js";
import { isUuid, newId } from "../util/ids.js";
import { isMealieLocale, MEALIE_LOCALES } from "./locales.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "groups">;

export const LabelIn = z
  .object({
    name: z.string().trim().min(1, "This Field is Required").max(255, "Must Be At Most 255 Characters"),
    color: z.string().trim().max(64).nullish(),
  })
  .loose();
export const SeederIn = z.object({ locale: z.string() }).loose();

type L = LabelSummary;
export const labelAttributes = new AttributeTable<Timed<LabelSummary>>("label", {
  ...rowTimeAttributes<L>(),
  id: attr.uuid((l: L) => l.id),
  name: attr.string((l: L) => l.name),
  color: attr.string((l: L) => l.color),
  groupId: attr.uuid((l: L) => l.groupId),
});

export type SeedKind = "foods" | "units" | "labels";

export class LabelsService {
  constructor(private readonly larder: Deps) {}

  list(actor: Actor, query: ListQuery): Page<LabelSummary> {
    const g = this.group(actor);
    const items = g.labels.data.labels.map((l) => timed(presentLabel(l, g.doc.data.id), l));
    return listQuery(items, query, labelAttributes, {
      defaultOrderBy: null,
      search: textRanker<LabelSummary>([(l) => l.name]),
    });
  }

  get(actor: Actor, id: string): LabelSummary {
    const g = this.group(actor);
    return presentLabel(this.record(g, id), g.doc.data.id);
  }

  /** POST /groups/labels: 200, not 201, as in Mealie. A name the group already has is a 400. */
  async create(actor: Actor, input: unknown): Promise<LabelSummary> {
    const g = this.group(actor);
    const body = LabelIn.parse(input ?? {});
    this.assertFreeName(g, body.name, null);
    const now = new Date().toISOString();
    const rec = LabelRecord.parse({
      id: newId(),
      name: body.name,
      color: body.color || "#959595",
      createdAt: now,
      updatedAt: now,
    });
    await g.labels.update((d) => {
      d.labels.push(rec);
    });
    return presentLabel(rec, g.doc.data.id);
  }

  async update(actor: Actor, id: string, input: unknown): Promise<LabelSummary> {
    const g = this.group(actor);
    const cur = this.record(g, id);
    const body = LabelIn.parse(input ?? {});
    this.assertFreeName(g, body.name, cur.id);
    const next: LabelRecord = {
      ...cur,
      name: body.name,
      color: body.color || cur.color,
      updatedAt: new Date().toISOString(),
    };
    await g.labels.update((d) => {
      const i = d.labels.findIndex((l) => l.id === cur.id);
      if (i >= 0) d.labels[i] = next;
    });
    return presentLabel(next, g.doc.data.id);
  }

  /** DELETE: foods that carried the label lose it (a dangling id would name nothing). */
  async remove(actor: Actor, id: string): Promise<LabelSummary> {
    const g = this.group(actor);
    const cur = this.record(g, id);
    await g.labels.update((d) => {
      d.labels = d.labels.filter((l) => l.id !== cur.id);
    });
    if (g.foods.data.foods.some((f) => f.labelId === cur.id)) {
      await g.foods.update((d) => {
        for (const f of d.foods) if (f.labelId === cur.id) f.labelId = null;
      });
    }
    return presentLabel(cur, g.doc.data.id);
  }

  /**
   * POST /groups/seeders/{foods|units|labels} `{locale}`: one of Mealie's locales (else 422). A
   * locale without lists of its own takes its language's (fr-CA → fr-FR), else en-US. Names the
   * group already has are skipped.
   */
  async seed(actor: Actor, kind: SeedKind, input: unknown): Promise<{ message: string; error: false }> {
    const g = this.group(actor);
    const { locale } = SeederIn.parse(input ?? {});
    if (!isMealieLocale(locale)) {
      throw new ValidationError([
        { loc: ["body", "locale"], msg: `Input should be one of ${MEALIE_LOCALES.join(", ")}`, type: "enum" },
      ]);
    }
    await seedGroup(g, await seedDirFor(locale), [kind]);
    return { message: "Seeding Successful", error: false };
  }

  private group(actor: Actor): GroupData {
    if (actor.kind !== "user") throw new UnauthorizedError();
    const g = this.larder.groups.byId(actor.user.groupId);
    if (!g) throw new NotFoundError("group not found");
    return g;
  }

  private record(g: GroupData, id: string): LabelRecord {
    const found = isUuid(id)
      ? g.labels.data.labels.find((l) => l.id === id.toLowerCase() || l.id === id)
      : undefined;
    if (!found) throw new NotFoundError();
    return found;
  }

  private assertFreeName(g: GroupData, name: string, exceptId: string | null): void {
    const lower = name.toLowerCase();
    if (g.labels.data.labels.some((l) => l.id !== exceptId && l.name.toLowerCase() === lower)) {
      throw new BadRequestError(`A label named '${name}' already exists`, {
        message: "An item with this name already exists",
        error: true,
        exception: `duplicate label name ${name}`,
      });
    }
  }
}

/** The seed folder for a locale: its own, its language's, else en-US. */
export async function seedDirFor(locale: string): Promise<string> {
  const root = join(await findTemplatesDir(), "seed");
  const language = locale.split("-")[0];
  const candidates = [
    locale,
    ...MEALIE_LOCALES.filter((l) => l !== locale && l.startsWith(`${language}-`)),
    "en-US",
  ];
  for (const c of candidates) {
    const dir = join(root, c);
    if (
      existsSync(join(dir, "foods.json")) ||
      existsSync(join(dir, "units.json")) ||
      existsSync(join(dir, "labels.json"))
    )
      return dir;
  }
  return join(root, "en-US");
}
