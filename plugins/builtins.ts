/**
 * Every built-in plugin, handed to `Larder.open({ plugins })` by the composition roots (the CLI, the
 * server, tests). Core never imports this file: it only knows the registry.
 */
import { importers } from "./importers/index.js";
import { migrations } from "./migrations/index.js";
import { notifiers } from "./notifiers/index.js";
import { parsers } from "./parsers/index.js";

export const builtinPlugins: readonly unknown[] = [...importers, ...migrations, ...parsers, ...notifiers];
