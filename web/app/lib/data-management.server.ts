/**
 * The data-management screens' loaders and actions (spec §2 /group/data/…): foods, units, labels and
 * recipe actions of the viewer's group or household, through core with the viewer's actor.
 */
import { data as reply, type AppLoadContext } from "react-router";
import { field, flag, optional, settingsWrite, type SettingsResult } from "./settings.server.js";
import type { UserActor } from "./session.server.js";

/** Rows per page on the foods and units lists. */
export const DATA_PAGE_SIZE = 50;

export function pageOf<T>(
  items: T[],
  url: URL,
): { items: T[]; page: number; totalPages: number; total: number } {
  const totalPages = Math.max(1, Math.ceil(items.length / DATA_PAGE_SIZE));
  const asked = Number(url.searchParams.get("page") ?? "1");
  const page = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, totalPages) : 1;
  return {
    items: items.slice((page - 1) * DATA_PAGE_SIZE, page * DATA_PAGE_SIZE),
    page,
    totalPages,
    total: items.length,
  };
}

/** Every label of the group, by name, for pickers. */
export function allLabels(context: AppLoadContext, actor: UserActor) {
  return context.larder.labels
    .list(actor, { perPage: -1, orderBy: "name", orderDirection: "asc" })
    .items.map((l) => ({ id: l.id, name: l.name, color: l.color }));
}

type T = (key: string, values?: Record<string, unknown>) => string;

/** The writes shared by the foods and units screens. */
export async function vocabularyAction(
  context: AppLoadContext,
  actor: UserActor,
  kind: "foods" | "units",
  form: FormData,
  t: T,
): Promise<SettingsResult> {
  const s = context.larder.foodsUnits;
  const intent = field(form, "intent");
  const one = kind === "foods" ? "food" : "unit";
  const fields = (): Record<string, unknown> =>
    kind === "foods"
      ? {
          name: field(form, "name").trim(),
          pluralName: optional(form, "pluralName"),
          description: field(form, "description").trim(),
          labelId: optional(form, "labelId"),
        }
      : {
          name: field(form, "name").trim(),
          pluralName: optional(form, "pluralName"),
          description: field(form, "description").trim(),
          abbreviation: field(form, "abbreviation").trim(),
          pluralAbbreviation: field(form, "pluralAbbreviation").trim(),
          useAbbreviation: flag(form, "useAbbreviation"),
          fraction: flag(form, "fraction"),
        };
  switch (intent) {
    case "create":
      return settingsWrite(context, intent, t(`${one}.created`), async () => {
        const made = await s.create(actor, kind, fields());
        if (kind === "foods" && flag(form, "onHand")) await s.setOnHand(actor, made.id, true);
      });
    case "update":
      return settingsWrite(context, intent, t(`${one}.updated`), async () => {
        const id = field(form, "id");
        await s.update(actor, kind, id, fields());
        if (kind === "foods") await s.setOnHand(actor, id, flag(form, "onHand"));
      });
    case "onHand":
      return settingsWrite(context, intent, t("food.updated"), () =>
        s.setOnHand(actor, field(form, "id"), flag(form, "onHand")),
      );
    case "delete":
      return settingsWrite(context, intent, t(`${one}.deleted`), () =>
        s.remove(actor, kind, field(form, "id")),
      );
    case "merge":
      return settingsWrite(context, intent, t("merge.done"), () =>
        s.merge(actor, kind, field(form, "from"), field(form, "to")),
      );
    case "seed":
      return seedAction(context, actor, kind, form, t);
    default:
      throw reply("Unknown intent", { status: 400 });
  }
}

export function seedAction(
  context: AppLoadContext,
  actor: UserActor,
  kind: "foods" | "units" | "labels",
  form: FormData,
  t: T,
): Promise<SettingsResult> {
  return settingsWrite(context, "seed", t("seed.done"), () =>
    context.larder.labels.seed(actor, kind, { locale: field(form, "locale") }),
  );
}
