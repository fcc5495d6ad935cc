/** Writes the demo group's labels, units and foods from templates/seed/en-US (deterministic ids). */
import { resolve } from "node:path";
import { DataFolder, ensurePrivateDirs } from "../core/storage/data-folder.js";
import { GroupsRegistry } from "../core/groups/registry.js";
import { seedGroup } from "../core/foods/seed.js";

const folder = new DataFolder(resolve("data"));
await ensurePrivateDirs(folder);
const groups = new GroupsRegistry(folder);
await groups.open();
const home = groups.bySlugOrNull("home");
if (!home) throw new Error("data/groups/home is missing");
const added = await seedGroup(
  home,
  resolve("templates/seed/en-US"),
  ["labels", "units", "foods"],
  "2025-01-05T09:00:00Z",
);
await Promise.all([home.labels.idle(), home.units.idle(), home.foods.idle()]);
console.log(`seeded demo vocabulary: ${JSON.stringify(added)}`);
