/**
 * Which group and household a new user joins. `--group` / `--household` accept a slug (the folder name)
 * or the display name; without them the user joins the site's default group (`defaultGroup` in
 * larder.json, "home" like Mealie's "Home"; given by slug or name), else the first group, and its
 * household "Family", else its first.
 */
import { CliError, EXIT } from "../output.js";

export interface PlaceOption {
  slug: string;
  name: string;
  households: Array<{ slug: string; name: string }>;
}

export interface Placement {
  group: { slug: string; name: string };
  household: { slug: string; name: string };
}

const matches = (want: string) => (o: { slug: string; name: string }) =>
  o.slug === want || o.name.toLowerCase() === want.trim().toLowerCase();

export function pickPlacement(
  groups: PlaceOption[],
  groupArg?: string,
  householdArg?: string,
  defaultGroup = "home",
): Placement {
  const sorted = [...groups].sort((a, b) => a.slug.localeCompare(b.slug));
  const group = groupArg ? sorted.find(matches(groupArg)) : (sorted.find(matches(defaultGroup)) ?? sorted[0]);
  if (!group) {
    throw new CliError(
      groupArg ? `No such group: ${groupArg}` : "The data folder has no group",
      EXIT.notFound,
    );
  }
  const households = [...group.households].sort((a, b) => a.slug.localeCompare(b.slug));
  const household = householdArg
    ? households.find(matches(householdArg))
    : (households.find((h) => h.slug === "family") ?? households[0]);
  if (!household) {
    throw new CliError(
      householdArg
        ? `No such household in group ${group.name}: ${householdArg}`
        : `Group ${group.name} has no household`,
      EXIT.notFound,
    );
  }
  return {
    group: { slug: group.slug, name: group.name },
    household: { slug: household.slug, name: household.name },
  };
}
