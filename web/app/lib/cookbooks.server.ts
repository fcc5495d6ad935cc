/**
 * What the cookbook screens need from core, as plain data: the household's cookbooks, the choices of
 * the filter builder (ids and names), and how many recipes a filter selects (the builder's preview).
 */
import type { AppLoadContext } from "react-router";
import type { UserActor } from "./session.server.js";
import type { BuilderKey } from "./cookbook-filter.js";

export interface CookbookRow {
  id: string;
  name: string;
  slug: string;
  description: string;
  position: number;
  public: boolean;
  queryFilterString: string;
}

export interface Choice {
  value: string;
  label: string;
}

const ALL = { page: 1, perPage: -1 };

export function cookbookRows(context: AppLoadContext, actor: UserActor): CookbookRow[] {
  const env = context.larder.cookbooks.list(actor, { ...ALL, orderBy: "position", orderDirection: "asc" });
  return env.items.map((c) => ({
    id: c.id,
    name: c.name,
    slug: c.slug,
    description: c.description,
    position: c.position,
    public: c.public,
    queryFilterString: c.queryFilterString,
  }));
}

/** The builder's choices: organizers, foods and households of the actor's group, by id. */
export function builderChoices(
  context: AppLoadContext,
  actor: UserActor,
  groupSlug: string,
): Record<BuilderKey, Choice[]> {
  const { larder } = context;
  const organizers = (kind: "categories" | "tags" | "tools") =>
    larder.recipes.lister
      .organizers(actor, kind, { ...ALL, orderBy: "name", orderDirection: "asc" })
      .items.map((o) => ({ value: o.id, label: o.name }));
  const group = larder.directory.groupBySlug(groupSlug);
  const byLabel = (a: Choice, b: Choice) => a.label.localeCompare(b.label);
  return {
    categories: organizers("categories"),
    tags: organizers("tags"),
    tools: organizers("tools"),
    foods: larder.directory
      .foodsOf(groupSlug)
      .map((f) => ({ value: f.id, label: f.name }))
      .sort(byLabel),
    households: (group ? larder.directory.householdsOf(group.id) : [])
      .map((h) => ({ value: h.id, label: h.name }))
      .sort(byLabel),
  };
}

/** How many of the group's recipes a filter selects; null when the filter is not valid. */
export function previewCount(context: AppLoadContext, actor: UserActor, filter: string): number | null {
  try {
    return context.larder.recipes.lister.list(actor, {
      page: 1,
      perPage: 1,
      queryFilter: filter.trim() ? filter : null,
    }).total;
  } catch {
    return null;
  }
}
