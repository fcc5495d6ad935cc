/** Search: the recipe index and the scan for short lists. */
export * from "./fold.js";
export * from "./recipe-search.js";
export * from "./text-search.js";
