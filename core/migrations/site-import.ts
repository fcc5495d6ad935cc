/**
 * Bringing one group of a whole-site backup (a Mealie backup) into a Larder group: labels, foods and
 * units, organizers, users, recipes (each through `larder.imports`, owned by the user who owned it
 * there), their comments and ratings, then cookbooks. Everything is matched before it is created, so a
 * second run adds nothing: vocabulary and organizers by name, users by username or e-mail, recipes by
 * their backup id (migrations.json), cookbooks by name within their household. Since Mealie v2 a group
 * has households: a user joins the household of the same name (made when missing), and what they made
 * (meal plans, lists, their household's cookbooks) goes with them.
 *
 * Passwords cannot carry over (Larder never reads another app's hashes): users are created without
 * one, so they cannot sign in until they reset it ("Forgot password", or an admin's
 * `larder user password`). The report says which users those are.
 */
import type { Actor } from "../actor.js";
import type { Parts } from "../parts.js";
import type { GroupData, HouseholdData } from "../groups/registry.js";
import { nameField } from "../groups/group-admin.js";
import type { MigratedGroup, MigratedUser } from "../plugins/kinds.js";
import type { UserRecord } from "../schemas/records.js";
import type { ReportWriter } from "../reports/reports-service.js";
import { EMAIL_RE } from "../users/users-service.js";
import { PLAN_ENTRY_TYPES } from "../schemas/week.js";
import { type EntryOutcome, type MigrationProgress, outcomeOfUnread } from "./migration-service.js";
import { errorText, reportOutcome } from "./migration-service.js";
import { fitToLimits } from "./fit-limits.js";
import { LarderError } from "../errors.js";
import type { MigrationIndex } from "./migration-index.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<
  Parts,
  | "comments"
  | "cookbooks"
  | "groups"
  | "imports"
  | "labels"
  | "mealplans"
  | "organizers"
  | "ratings"
  | "recipes"
  | "shopping"
  | "users"
  | "vocabulary"
>;

export interface GroupImportResult {
  report: ReportWriter;
  outcomes: EntryOutcome[];
  /** Sentences for the person: users to reset, e-mails replaced, what was matched. */
  notes: string[];
  counts: {
    users: number;
    labels: number;
    foods: number;
    units: number;
    cookbooks: number;
    comments: number;
    ratings: number;
    mealplans: number;
    shoppingLists: number;
  };
}

const PLACEHOLDER_DOMAIN = "mealie-backup.invalid";

export async function importGroup(
  larder: Deps,
  target: GroupData,
  src: MigratedGroup,
  ctx: {
    /**
     * Acts for what has no owner of its own (labels, cookbooks, recipes whose owner is unknown); by
     * default the group's first admin once the backup's users are in.
     */
    fallback?: Actor & { kind: "user" };
    index: MigrationIndex;
    /** The group's report, begun as a member of the group. */
    makeReport: (actor: Actor) => Promise<ReportWriter>;
    onProgress?: (p: MigrationProgress) => void;
    total: number | null;
    doneBefore: number;
  },
): Promise<GroupImportResult> {
  const notes: string[] = [];
  const counts = {
    users: 0,
    labels: 0,
    foods: 0,
    units: 0,
    cookbooks: 0,
    comments: 0,
    ratings: 0,
    mealplans: 0,
    shoppingLists: 0,
  };
  const household =
    (ctx.fallback ? larder.groups.household(target.doc.data.id, ctx.fallback.user.householdId) : null) ??
    [...target.households.values()][0];

  const households = new Map<string, Promise<HouseholdData>>();
  /**
   * The household a new user joins: the one of their backup household's name, made when the group has
   * none of that name, so that a Mealie group's households stay apart (and the meal plans and lists
   * their members made with them). Without one, the group's household the import runs in.
   */
  const householdFor = (name: string | null): Promise<HouseholdData> => {
    const key = name?.trim().toLowerCase() ?? "";
    // Once per backup household, so that its note is written once, not once per member.
    if (!households.has(key)) households.set(key, resolveHousehold(name));
    return households.get(key)!;
  };
  const resolveHousehold = async (name: string | null): Promise<HouseholdData> => {
    if (!name?.trim()) return household;
    if (!nameField.safeParse(name).success) {
      notes.push(
        `Household '${name.slice(0, 60)}' is not a name Larder takes; its members join ${household.doc.data.name}.`,
      );
      return household;
    }
    const wanted = name.trim().toLowerCase();
    const found = [...target.households.values()].find((h) => h.doc.data.name.toLowerCase() === wanted);
    if (found) return found;
    try {
      const made = await larder.groups.createHousehold(target, name.trim());
      notes.push(`Household ${made.doc.data.name} was made for the backup's members of it.`);
      return made;
    } catch (e) {
      notes.push(
        `Household ${name} could not be made (${errorText(e)}); its members join ${household.doc.data.name}.`,
      );
      return household;
    }
  };

  // Users: matched by username or e-mail anywhere on the site; new ones join the target group.
  const users = new Map<string, UserRecord>();
  const mustReset: string[] = [];
  for (const u of src.users) {
    const found = findUser(larder, u);
    if (found) {
      if (found.groupId === target.doc.data.id) users.set(u.sourceId, found);
      else
        notes.push(
          `User ${u.username} already exists in another group; their recipes here are owned by the group's admin.`,
        );
      continue;
    }
    const email = EMAIL_RE.test(u.email)
      ? u.email
      : `${u.username.replace(/[^A-Za-z0-9._-]/g, "_")}@${PLACEHOLDER_DOMAIN}`;
    if (email !== u.email)
      notes.push(`User ${u.username} had no valid e-mail ('${u.email}'); it is ${email} until they set one.`);
    try {
      const made = await larder.users.create(
        {
          username: u.username,
          fullName: u.fullName || u.username,
          email,
          admin: u.admin,
          advanced: u.advanced,
          canInvite: u.canInvite,
          canManage: u.canManage,
          canManageHousehold: u.canManage,
          canOrganize: u.canOrganize,
        },
        { groupId: target.doc.data.id, householdId: (await householdFor(u.household)).doc.data.id },
      );
      users.set(u.sourceId, made);
      mustReset.push(u.username);
      counts.users++;
    } catch (e) {
      notes.push(`User ${u.username} was not brought in: ${errorText(e)}`);
    }
  }
  if (mustReset.length) {
    notes.push(
      `Passwords cannot carry over from Mealie: ${mustReset.length} user(s) must set a new one before signing in ("Forgot password", or larder user passwd NAME): ${mustReset.join(", ")}.`,
    );
  }
  const memberActor = (): (Actor & { kind: "user" }) | null => {
    const u = larder.users.firstAdminOf(target.doc.data.id);
    return u ? { kind: "user", user: u } : null;
  };
  const fallback = ctx.fallback ?? memberActor();
  if (!fallback)
    throw new LarderError(`Group ${target.doc.data.name} has no member to own what the backup brings`, 400);
  const report = await ctx.makeReport(fallback);

  // Labels first: foods point at them.
  const labelIds = new Map<string, string>();
  for (const l of src.labels) {
    if (!l.name.trim()) continue;
    const existing = target.labels.data.labels.find(
      (x) => x.name.toLowerCase() === l.name.trim().toLowerCase(),
    );
    if (existing) labelIds.set(l.sourceId, existing.id);
    else {
      const color = l.color && /^#[0-9a-f]{3,8}$/i.test(l.color) ? l.color : undefined;
      const made = await larder.labels.create(fallback, { name: l.name.trim(), color });
      labelIds.set(l.sourceId, made.id);
      counts.labels++;
    }
  }
  // Foods and units each in one write (VocabularyService.createMany); names the group has are skipped.
  const foods = src.foods.filter((f) => f.name.trim());
  const madeFoods = await larder.vocabulary.createMany(
    target,
    "foods",
    foods.map((f) => ({
      name: f.name.trim(),
      pluralName: f.pluralName,
      description: f.description,
      labelId: f.labelSourceId ? (labelIds.get(f.labelSourceId) ?? null) : null,
    })),
  );
  counts.foods += madeFoods.created.length;
  for (const { index, error } of madeFoods.refused)
    notes.push(`The food ${foods[index].name.trim()} was not kept: ${errorText(error)}`);
  const units = src.units.filter((u) => u.name.trim());
  const madeUnits = await larder.vocabulary.createMany(
    target,
    "units",
    units.map((u) => ({
      name: u.name.trim(),
      pluralName: u.pluralName,
      description: u.description,
      abbreviation: u.abbreviation,
      pluralAbbreviation: u.pluralAbbreviation,
      fraction: u.fraction,
      useAbbreviation: u.useAbbreviation,
    })),
  );
  counts.units += madeUnits.created.length;
  for (const { index, error } of madeUnits.refused)
    notes.push(`The unit ${units[index].name.trim()} was not kept: ${errorText(error)}`);
  await larder.organizers.ensure(target, "categories", src.categories);
  await larder.organizers.ensure(target, "tags", src.tags);
  await larder.organizers.ensure(target, "tools", src.tools);

  const actorOf = (sourceId: string | null): Actor & { kind: "user" } => {
    const u = sourceId ? users.get(sourceId) : undefined;
    return u ? { kind: "user", user: u } : fallback;
  };

  // Recipes, each as its owner, with its comments and ratings.
  const outcomes: EntryOutcome[] = [];
  const pending: Promise<unknown>[] = [];
  // Ratings go into the group's document together once the recipes are in (RatingsService.importMany).
  const ratings: { userId: string; recipeId: string; rating: number | null; isFavorite: boolean }[] = [];
  const ratedNames: string[] = [];
  for (const r of src.recipes) {
    let outcome: EntryOutcome;
    const entry = r.entry;
    if (entry.ok && !ctx.index.idOf(`mealie_backup:recipe:${r.sourceId}`)) await r.loadPicture?.();
    const key = `mealie_backup:recipe:${r.sourceId}`;
    if (!entry.ok) outcome = outcomeOfUnread(entry);
    else {
      const existing = ctx.index.idOf(key);
      const name = String(entry.imported.recipe.name ?? entry.name);
      if (existing)
        outcome = { status: "skipped", name, slug: larder.recipes.store.getById(existing)?.slug ?? existing };
      else {
        try {
          // Mealie sets no limits on a recipe; what is past Larder's is cut and said, as in any migration.
          const { recipe, cut } = fitToLimits(entry.imported.recipe);
          const warnings = [...(entry.warnings ?? []), ...cut];
          const created = await larder.imports.create(
            actorOf(r.ownerSourceId),
            { ...entry.imported, recipe },
            {
              tags: true,
              categories: true,
              source: "migration:mealie_backup",
              id: ctx.index.recipeIdFor(key),
              // The backup's ingredients are already structured; a parser would only second-guess them.
              parseIngredients: false,
              dates: {
                dateAdded: typeof recipe.dateAdded === "string" ? recipe.dateAdded : null,
                lastMade: typeof recipe.lastMade === "string" ? recipe.lastMade : null,
              },
            },
          );
          ctx.index.remember([key], created.id);
          // Not waited for one by one: each is in memory at once, and the lines appended while a write
          // runs share the next one (activity-log.ts).
          for (const c of r.comments) {
            if (!c.text.trim()) continue;
            pending.push(
              larder.comments
                .create(actorOf(c.userSourceId), { recipeId: created.id, text: c.text })
                .then(() => counts.comments++)
                .catch((e: unknown) =>
                  notes.push(`A comment on ${created.name} was not kept: ${errorText(e)}`),
                ),
            );
          }
          for (const x of r.ratings) {
            const who = actorOf(x.userSourceId);
            if (who === fallback && !users.has(x.userSourceId)) continue;
            ratings.push({
              userId: who.user.id,
              recipeId: created.id,
              rating: x.rating,
              isFavorite: x.favorite,
            });
            ratedNames.push(created.name);
          }
          outcome = {
            status: "imported",
            name: created.name,
            slug: created.slug,
            ...(warnings.length ? { warnings } : {}),
          };
        } catch (e) {
          outcome = { status: "failed", name, error: errorText(e) };
        }
      }
    }
    // Stored or not wanted, the picture is not held for the rest of the site.
    if (entry.ok && r.loadPicture) delete entry.imported.image;
    outcomes.push(outcome);
    reportOutcome(report, outcome);
    ctx.onProgress?.({ done: ctx.doneBefore + outcomes.length, total: ctx.total, last: outcome });
  }
  await Promise.all(pending);
  try {
    const { kept, refused } = await larder.ratings.importMany(target, ratings);
    counts.ratings += kept;
    for (const i of refused)
      notes.push(
        `A rating of ${ratedNames[i]} was not kept: its user or recipe is not here, or it is not a number`,
      );
  } catch (e) {
    notes.push(`The ratings (${ratings.length}) were not kept: ${errorText(e)}`);
  }

  /**
   * Who makes a cookbook: a member of its household in the backup (cookbooks are a household's since
   * Mealie v2, as they are here), else the import's own actor.
   */
  const cookbookMaker = (household: string | null): Actor & { kind: "user" } => {
    const wanted = household?.trim().toLowerCase();
    const member = wanted
      ? [...users.values()].find(
          (u) => larder.groups.household(u.groupId, u.householdId)?.doc.data.name.toLowerCase() === wanted,
        )
      : undefined;
    return member ? { kind: "user", user: member } : fallback;
  };
  // Cookbooks last: their filters name organizers that now exist.
  for (const c of src.cookbooks) {
    if (!c.name.trim()) continue;
    const maker = cookbookMaker(c.household);
    const exists = larder.cookbooks
      .inGroup(target)
      .some(
        (x) =>
          x.household.doc.data.id === maker.user.householdId &&
          x.cookbook.name.toLowerCase() === c.name.trim().toLowerCase(),
      );
    if (exists) continue;
    const body = {
      name: c.name.trim(),
      description: c.description,
      position: c.position,
      public: c.public,
      queryFilterString: c.queryFilterString ?? "",
    };
    try {
      await larder.cookbooks.create(maker, body);
      counts.cookbooks++;
    } catch (e) {
      // A filter Larder cannot read: keep the cookbook, show all recipes, and say so.
      await larder.cookbooks.create(maker, { ...body, queryFilterString: "" }).then(
        () => {
          counts.cookbooks++;
          notes.push(
            `Cookbook ${c.name}: its filter '${c.queryFilterString}' could not be read (${errorText(e)}); it has none now.`,
          );
        },
        (e2: unknown) => notes.push(`Cookbook ${c.name} was not brought in: ${errorText(e2)}`),
      );
    }
  }
  // Meal plans and shopping lists: they point at recipes, foods and units that now exist.
  let otherEntryType = 0;
  let undated = 0;
  const recipeIdOf = (sourceId: string | null) =>
    sourceId ? ctx.index.idOf(`mealie_backup:recipe:${sourceId}`) : null;
  for (const m of src.mealplans) {
    const key = `mealie_backup:mealplan:${src.sourceId}:${m.sourceId}`;
    if (ctx.index.seen(key)) continue;
    // Mealie allows an entry without a day (2026); a plan here is a day's, so it has nowhere to go.
    if (!/^\d{4}-\d{2}-\d{2}$/.test(m.date)) {
      undated++;
      continue;
    }
    const entryType = (PLAN_ENTRY_TYPES as readonly string[]).includes(m.entryType) ? m.entryType : "dinner";
    if (entryType !== m.entryType) otherEntryType++;
    const recipeId = recipeIdOf(m.recipeSourceId);
    const title = m.title.trim() || (recipeId ? "" : "Meal");
    try {
      const made = await larder.mealplans.create(actorOf(m.userSourceId), {
        date: m.date,
        entryType,
        title,
        text: m.text,
        recipeId,
      });
      ctx.index.rememberKey(key, String(made.id));
      counts.mealplans++;
    } catch (e) {
      notes.push(`A meal plan entry of ${m.date} was not kept: ${errorText(e)}`);
    }
  }
  if (undated) notes.push(`${undated} meal plan entries had no date; they were left out.`);
  if (otherEntryType)
    notes.push(
      `${otherEntryType} meal plan entries had a meal type Larder does not know; they are dinners now.`,
    );
  for (const l of src.shoppingLists) {
    const key = `mealie_backup:shopping:${l.sourceId}`;
    if (ctx.index.seen(key)) continue;
    try {
      const who = actorOf(l.userSourceId);
      const list = await larder.shopping.createList(who, { name: l.name || "Shopping list" });
      ctx.index.rememberKey(key, list.id);
      const idOf = (kind: "foods" | "units", name: string | null) =>
        name ? (larder.vocabulary.byName(target, kind, name)?.id ?? null) : null;
      const labelOf = (name: string | null) =>
        name ? (target.labels.data.labels.find((x) => x.name === name)?.id ?? null) : null;
      const items = l.items.map((it) => {
        const foodId = idOf("foods", it.food);
        // A food the vocabulary does not have (one deleted in Mealie) stays on the item as words.
        const note = !foodId && it.food ? [it.food, it.note].filter((x) => x.trim()).join(", ") : it.note;
        return {
          shoppingListId: list.id,
          note,
          quantity: it.quantity ?? 0,
          checked: it.checked,
          position: it.position,
          foodId,
          unitId: idOf("units", it.unit),
          labelId: labelOf(it.label),
        };
      });
      for (let i = 0; i < items.length; i += 100)
        await larder.shopping.createItems(who, items.slice(i, i + 100));
      counts.shoppingLists++;
    } catch (e) {
      notes.push(`Shopping list ${l.name} was not kept: ${errorText(e)}`);
    }
  }
  return { report, outcomes, notes, counts };
}

function findUser(larder: Deps, u: MigratedUser): UserRecord | null {
  const name = u.username.toLowerCase();
  const email = u.email.toLowerCase();
  return (
    larder.users
      .all()
      .find(
        (x) =>
          x.username.toLowerCase() === name || (EMAIL_RE.test(u.email) && x.email.toLowerCase() === email),
      ) ?? null
  );
}
