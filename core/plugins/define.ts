import type { PluginKind, PluginKinds } from "./kinds.js";

/**
 * A plugin module's default export: `export default definePlugin({ kind: "parser", name: "nlp", … })`.
 * It only types the object; the registry checks the shape when it registers it.
 */
export function definePlugin<K extends PluginKind>(plugin: PluginKinds[K] & { kind: K }): PluginKinds[K] {
  return plugin;
}
