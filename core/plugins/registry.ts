/**
 * The plugin registry (ARCHITECTURE §6). Core asks it for "the parser named nlp" or "every importer that
 * accepts this input"; it never imports a plugin by path. Built-ins are handed to it at start by the
 * composition root, third-party plugins are loaded with `import()` from names in the configuration.
 * A plugin that fails to load, has the wrong shape, or throws an unexpected error while used is
 * reported and disabled — never fatal to the server.
 */
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Logger } from "../log/logger.js";
import { LarderError } from "../errors.js";
import { PLUGIN_KINDS, type AnyPlugin, type PluginKind, type PluginKinds } from "./kinds.js";

export type PluginState = "loaded" | "failed" | "disabled";

export interface PluginStatus {
  kind: PluginKind | null;
  name: string;
  /** `builtin` or the specifier it was loaded from. */
  source: string;
  state: PluginState;
  error: string | null;
}

/**
 * Thrown by a plugin for an input it cannot handle (a page with no recipe, a line it cannot read).
 * Such an error is the caller's answer, not a fault of the plugin, so the plugin stays enabled.
 */
export class PluginInputError extends LarderError {
  constructor(message: string, status = 400) {
    super(message, status);
  }
}

const REQUIRED_METHODS: Record<PluginKind, string[]> = {
  importer: ["accepts", "import"],
  migration: ["migrate"],
  parser: ["parse"],
  notifier: ["send"],
};

export class PluginRegistry {
  #plugins = new Map<string, { plugin: AnyPlugin; status: PluginStatus }>();
  #failures: PluginStatus[] = [];

  constructor(private readonly log: Logger) {}

  /** Register one plugin object; a malformed one is recorded as failed. Returns whether it was taken. */
  register(candidate: unknown, source = "builtin"): boolean {
    const problem = shapeProblem(candidate);
    const c = candidate as Partial<AnyPlugin> | null;
    const name = typeof c?.name === "string" ? c.name : "(unnamed)";
    const kind =
      typeof c?.kind === "string" && (PLUGIN_KINDS as readonly string[]).includes(c.kind)
        ? (c.kind as PluginKind)
        : null;
    if (problem) return this.#fail({ kind, name, source, state: "failed", error: problem });
    const plugin = candidate as AnyPlugin;
    const key = `${plugin.kind}:${plugin.name}`;
    if (this.#plugins.has(key)) {
      return this.#fail({
        kind,
        name,
        source,
        state: "failed",
        error: `a ${plugin.kind} plugin named '${plugin.name}' is already registered`,
      });
    }
    this.#plugins.set(key, {
      plugin,
      status: { kind: plugin.kind, name: plugin.name, source, state: "loaded", error: null },
    });
    return true;
  }

  /**
   * Load third-party plugins by npm package name or path (relative paths from `baseDir`). A module may
   * export one plugin or an array of them as its default export.
   */
  async load(specifiers: readonly string[], baseDir: string): Promise<void> {
    for (const spec of specifiers) {
      const target =
        spec.startsWith(".") || isAbsolute(spec) ? pathToFileURL(resolve(baseDir, spec)).href : spec;
      try {
        const mod = (await import(target)) as { default?: unknown };
        const exported = mod.default ?? mod;
        const list = Array.isArray(exported) ? exported : [exported];
        for (const p of list) this.register(p, spec);
      } catch (err) {
        this.#fail({ kind: null, name: spec, source: spec, state: "failed", error: errorText(err) });
      }
    }
  }

  /** The enabled plugin of this kind and name, or null. */
  get<K extends PluginKind>(kind: K, name: string): PluginKinds[K] | null {
    const entry = this.#plugins.get(`${kind}:${name}`);
    return entry && entry.status.state === "loaded" ? (entry.plugin as PluginKinds[K]) : null;
  }

  /** Every enabled plugin of a kind, in registration order. */
  all<K extends PluginKind>(kind: K): PluginKinds[K][] {
    const out: PluginKinds[K][] = [];
    for (const { plugin, status } of this.#plugins.values())
      if (plugin.kind === kind && status.state === "loaded") out.push(plugin as PluginKinds[K]);
    return out;
  }

  /**
   * Run `fn` with a plugin. An unexpected error disables a plugin loaded from `LARDER_PLUGINS` (reported
   * in `list()` and the log) and is rethrown as a 500 naming it; a `PluginInputError` or other
   * `LarderError` passes through and leaves the plugin enabled.
   */
  async use<P extends AnyPlugin, R>(plugin: P, fn: (p: P) => Promise<R> | R): Promise<R> {
    try {
      return await fn(plugin);
    } catch (err) {
      if (err instanceof LarderError) throw err;
      if ((err as { name?: string } | null)?.name === "AbortError") throw err;
      // Input nested deeper than any reader's recursion goes (JSON 8,000 levels deep): the input's
      // fault, a 422, and no reason to disable the plugin.
      if (err instanceof RangeError && /call stack/i.test(err.message))
        throw new LarderError("The input is nested too deeply to be read", 422);
      throw new LarderError(this.fault(plugin, err), 500);
    }
  }

  /**
   * A plugin threw where it should have answered: disable it, unless it is built in, and say what
   * happened. A built-in's fault is a Larder bug met on one input (one page, one export); disabling it
   * would let one such upload switch imports off for everyone until a restart, so it stays enabled and
   * only that request fails. A third-party plugin that misbehaves is switched off, as docs/plugins.md says.
   */
  fault(plugin: AnyPlugin, err: unknown): string {
    const entry = this.#plugins.get(`${plugin.kind}:${plugin.name}`);
    const named = `The ${plugin.kind} plugin '${plugin.name}' failed`;
    if (entry?.status.source === "builtin") {
      this.log.error(`${plugin.kind} plugin '${plugin.name}' threw (built in: it stays enabled)`, err);
      return `${named}: ${errorText(err)}`;
    }
    if (entry && entry.status.state === "loaded") {
      entry.status = { ...entry.status, state: "disabled", error: errorText(err) };
      this.log.error(`${plugin.kind} plugin '${plugin.name}' threw and is disabled until restart`, err);
    }
    return `${named} and has been disabled: ${errorText(err)}`;
  }

  /** What is loaded, what failed and what was disabled (`larder plugins`, admin screens). */
  list(): PluginStatus[] {
    return [
      ...[...this.#plugins.values()].map((e) => ({ ...e.status })),
      ...this.#failures.map((f) => ({ ...f })),
    ];
  }

  #fail(status: PluginStatus): false {
    this.#failures.push(status);
    this.log.error(`plugin '${status.name}' from ${status.source} was not loaded: ${status.error}`);
    return false;
  }
}

function shapeProblem(c: unknown): string | null {
  if (!c || typeof c !== "object")
    return "the module's default export is not a plugin object (use definePlugin)";
  const p = c as Record<string, unknown>;
  if (typeof p.kind !== "string" || !(PLUGIN_KINDS as readonly string[]).includes(p.kind)) {
    return `kind must be one of ${PLUGIN_KINDS.join(", ")}`;
  }
  if (typeof p.name !== "string" || !/^[a-z0-9][a-z0-9._-]{0,63}$/i.test(p.name))
    return "name must be 1–64 letters, digits, '.', '_' or '-'";
  for (const m of REQUIRED_METHODS[p.kind as PluginKind]) {
    if (typeof p[m] !== "function") return `a ${p.kind} plugin must have a ${m}() function`;
  }
  if (p.kind === "notifier" && (!Array.isArray(p.schemes) || p.schemes.length === 0))
    return "a notifier plugin must list its URL schemes";
  if (p.kind === "migration" && (!Array.isArray(p.types) || p.types.length === 0))
    return "a migration plugin must list its migration types";
  return null;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
