export { definePlugin } from "./define.js";
export { PluginRegistry, PluginInputError, type PluginStatus, type PluginState } from "./registry.js";
export * from "./kinds.js";
