/**
 * Bulk actions on recipes (mealie-api-notes §4.6): tag, categorize, settings, delete, export. Like
 * Mealie they look recipes up in the caller's household and skip what they cannot find instead of
 * failing the batch; on top of that each change is checked against core/policy's edit rule, and a
 * recipe the caller may not change is skipped the same way (the answer says nothing about others'
 * recipes). Export only reads, so it needs no edit right.
 */
import { z } from "zod";
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import type { GroupData } from "../groups/registry.js";
import type { OrganizerKind } from "../schemas/records.js";
import { NotFoundError, UnauthorizedError } from "../errors.js";
import { RECIPE_SETTINGS_DEFAULTS, type RecipeSettings } from "../schemas/recipe.js";
import { findHouseholdRecipe, mayEditRecipe, touchedDoc, type ScopedRecipe } from "../media/recipe-scope.js";
import { presentExport, type GroupDataExport } from "../exports/group-exports.js";
import { slugify } from "../util/slug.js";
import type { RecipeDoc } from "./doc.js";
import { lazySchema } from "../util/lazy-schema.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "exports" | "groups" | "log" | "organizers" | "recipes">;

const Slugs = lazySchema(() => z.array(z.string()).max(5000));
const OrganizerRef = lazySchema(() =>
  z.looseObject({
    id: z.string().nullish(),
    name: z.string().nullish(),
    slug: z.string().nullish(),
  }),
);

export const AssignTagsInput = lazySchema(() =>
  z.looseObject({ recipes: Slugs, tags: z.array(OrganizerRef) }),
);
export const AssignCategoriesInput = lazySchema(() =>
  z.looseObject({ recipes: Slugs, categories: z.array(OrganizerRef) }),
);
export const AssignSettingsInput = lazySchema(() =>
  z.looseObject({
    recipes: Slugs,
    settings: z.looseObject(
      Object.fromEntries(Object.keys(RECIPE_SETTINGS_DEFAULTS).map((k) => [k, z.boolean().nullish()])),
    ),
  }),
);
export const DeleteRecipesInput = lazySchema(() => z.looseObject({ recipes: Slugs }));
export const ExportRecipesInput = lazySchema(() =>
  z.looseObject({
    recipes: Slugs,
    exportType: z.literal("json").default("json"),
  }),
);

type Ref = z.infer<typeof OrganizerRef>;

export class BulkActions {
  constructor(private larder: Deps) {}

  private group(actor: Actor): GroupData {
    if (actor.kind !== "user") throw new UnauthorizedError();
    const g = this.larder.groups.byId(actor.user.groupId);
    if (!g) throw new NotFoundError("group not found");
    return g;
  }

  /** The named recipes of the caller's household, once each, missing ones skipped. */
  private found(actor: Actor, slugs: string[]): ScopedRecipe[] {
    const seen = new Set<string>();
    const out: ScopedRecipe[] = [];
    for (const slug of slugs) {
      let r: ScopedRecipe;
      try {
        r = findHouseholdRecipe(this.larder, actor, slug);
      } catch (e) {
        if (e instanceof NotFoundError) continue;
        throw e;
      }
      if (seen.has(r.entry.id)) continue;
      seen.add(r.entry.id);
      out.push(r);
    }
    return out;
  }

  private editable(actor: Actor, slugs: string[]): ScopedRecipe[] {
    return this.found(actor, slugs).filter((r) => mayEditRecipe(this.larder, r.user, r.entry));
  }

  /** Rewrite each editable recipe through `change`; one that fails to save (409, broken file) is skipped. */
  private async rewrite(actor: Actor, slugs: string[], change: (doc: RecipeDoc) => void): Promise<number> {
    let n = 0;
    for (const { entry } of this.editable(actor, slugs)) {
      const saved = await this.larder.recipes
        .changeById(entry.id, (current) => {
          const doc = touchedDoc(current);
          change(doc);
          return doc;
        })
        .then(
          () => true,
          (e: unknown) => {
            this.larder.log.warn(`bulk action skipped ${entry.groupSlug}/${entry.slug}:`, e);
            return false;
          },
        );
      if (saved) n++;
    }
    return n;
  }

  /** Canonical names of the referenced organizers, creating unknown ones (by name) as a recipe save would. */
  private async names(group: GroupData, kind: OrganizerKind, refs: Ref[]): Promise<string[]> {
    const out: string[] = [];
    for (const ref of refs) {
      const known =
        (ref.id ? this.larder.organizers.find(group, kind, ref.id) : null) ??
        (ref.slug ? this.larder.organizers.find(group, kind, ref.slug) : null) ??
        (ref.name ? this.larder.organizers.byName(group, kind, ref.name) : null);
      const name = known?.name ?? ref.name?.trim() ?? "";
      if (name && slugify(name) && !out.some((n) => slugify(n) === slugify(name))) out.push(name);
    }
    await this.larder.organizers.ensure(group, kind, out);
    return out;
  }

  private async assign(
    actor: Actor,
    kind: "tags" | "categories",
    slugs: string[],
    refs: Ref[],
  ): Promise<void> {
    const names = await this.names(this.group(actor), kind, refs);
    if (names.length === 0) return;
    await this.rewrite(actor, slugs, (doc) => {
      const have = new Set(doc[kind].map(slugify));
      doc[kind] = [...doc[kind], ...names.filter((n) => !have.has(slugify(n)))];
    });
  }

  /** POST bulk-actions/tag: append the tags to every recipe. */
  async tag(actor: Actor, input: unknown): Promise<void> {
    const body = AssignTagsInput.parse(input);
    await this.assign(actor, "tags", body.recipes, body.tags);
  }

  /** POST bulk-actions/categorize: append the categories to every recipe. */
  async categorize(actor: Actor, input: unknown): Promise<void> {
    const body = AssignCategoriesInput.parse(input);
    await this.assign(actor, "categories", body.recipes, body.categories);
  }

  /** POST bulk-actions/settings: replace the settings (omitted ones take the defaults); `locked` is kept. */
  async settings(actor: Actor, input: unknown): Promise<void> {
    const body = AssignSettingsInput.parse(input);
    const given = body.settings as Partial<Record<keyof RecipeSettings, boolean | null>>;
    await this.rewrite(actor, body.recipes, (doc) => {
      const next: Partial<RecipeSettings> = {};
      for (const k of Object.keys(RECIPE_SETTINGS_DEFAULTS) as (keyof RecipeSettings)[]) {
        if (k === "locked") continue;
        // disableAmount is Larder's own extra: Mealie clients never send it, so keep what the recipe has.
        const fallback =
          k === "disableAmount"
            ? (doc.settings.disableAmount ?? RECIPE_SETTINGS_DEFAULTS[k])
            : RECIPE_SETTINGS_DEFAULTS[k];
        const v = given[k] ?? fallback;
        if (v !== RECIPE_SETTINGS_DEFAULTS[k]) next[k] = v;
      }
      if (doc.settings.locked !== undefined && doc.settings.locked !== RECIPE_SETTINGS_DEFAULTS.locked)
        next.locked = doc.settings.locked;
      doc.settings = next;
    });
  }

  /** POST bulk-actions/delete: errors are swallowed per recipe, as in Mealie. */
  async delete(actor: Actor, input: unknown): Promise<number> {
    const body = DeleteRecipesInput.parse(input);
    let n = 0;
    for (const { entry, group } of this.editable(actor, body.recipes)) {
      try {
        // RecipesService.remove announces the delete; share links, ratings and comments follow it.
        await this.larder.recipes.remove(actor, entry.id);
        n++;
      } catch (e) {
        this.larder.log.warn(`bulk delete skipped ${group.slug}/${entry.slug}:`, e);
      }
    }
    return n;
  }

  /** POST bulk-actions/export → a new group export (listed by `exports`). */
  async export(actor: Actor, input: unknown): Promise<GroupDataExport> {
    const body = ExportRecipesInput.parse(input);
    const group = this.group(actor);
    const entries = this.found(actor, body.recipes).map((r) => r.entry);
    return presentExport(await this.larder.exports.groupExports.create(group, entries));
  }

  /** GET bulk-actions/export: the group's exports. */
  async exports(actor: Actor): Promise<GroupDataExport[]> {
    return (await this.larder.exports.groupExports.list(this.group(actor))).map(presentExport);
  }

  /** GET bulk-actions/export/download?path= or …/export/{id}/download → `{fileToken}`. */
  async downloadToken(actor: Actor, idOrPath: string): Promise<{ fileToken: string }> {
    return this.larder.exports.groupExports.downloadToken(this.group(actor), idOrPath);
  }

  /** DELETE bulk-actions/export/purge → Mealie's SuccessResponse. */
  async purge(actor: Actor): Promise<{ message: string; error: boolean }> {
    const n = await this.larder.exports.groupExports.purge(this.group(actor));
    return { message: `${n} exports deleted`, error: false };
  }
}
