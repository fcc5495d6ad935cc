/** Permission policies (spec §6) as pure functions, shared by core services and the web UI. */
export * from "./subjects.js";
export * from "./recipes.js";
export * from "./users.js";
export * from "./guards.js";
export * from "./groups.js";
