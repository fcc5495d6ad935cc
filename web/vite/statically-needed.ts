/**
 * What a set of modules needs of the client build, for vite.config.ts's chunks (decision 0223): the UI
 * kit's modules the home, a recipe and the shell run go to `ui-kit`, the rest to chunks only other pages
 * load.
 */
import type { Rollup } from "vite";

type ModuleInfo = Rollup.ModuleInfo;
type Statement = Rollup.ProgramNode["body"][number];

/**
 * The modules a set of roots needs through static imports, as the bundle will contain them. Following
 * every static import would not do: the app imports Mantine through `@mantine/core`'s index, which
 * imports all of Mantine, and tree-shaking keeps only what is used. So an import is followed to the
 * module that declares the names it imports, through the modules that only pass them on; a module is
 * followed whole (all it imports) once something in it is used, and a module with side effects
 * whenever it is imported. Where the syntax is not understood it follows every import, so the answer
 * can be too large (a module in `ui-kit` that no LANDING page needs) but not too small (the home
 * loading `ui-forms`; tests/web/client-chunks.test.ts checks the built manifest for it). On this
 * app it is exact: the same modules as those the default split gave the pages.
 */
export function staticallyNeeded(roots: Iterable<string>, getModuleInfo: (id: string) => ModuleInfo | null) {
  const needed = new Set<string>();
  const whole = new Set<string>();
  const names = new Set<string>();
  const everything = new Set<string>();
  const name = (node: { type: string; name?: string; value?: unknown }) =>
    node.type === "Identifier" ? node.name! : String(node.value);

  // The ids of a module's static imports by specifier: rollup lists them in the order of the module's
  // import and export declarations. Null where they do not match (nothing to parse, or JSX it added).
  const sourcesOf = (info: ModuleInfo): Map<string, string> | null => {
    if (!info.ast) return null;
    const specifiers: string[] = [];
    for (const node of info.ast.body) {
      if (
        (node.type === "ImportDeclaration" ||
          node.type === "ExportAllDeclaration" ||
          (node.type === "ExportNamedDeclaration" && node.source)) &&
        !specifiers.includes(String(node.source!.value))
      )
        specifiers.push(String(node.source!.value));
    }
    const ids = info.importedIds;
    return specifiers.length === ids.length ? new Map(specifiers.map((s, i) => [s, ids[i]])) : null;
  };
  const source = (sources: Map<string, string>, node: Statement) =>
    "source" in node && node.source ? sources.get(String(node.source.value)) : undefined;
  const declares = (
    node: NonNullable<Extract<Statement, { type: "ExportNamedDeclaration" }>["declaration"]>,
    exported: string,
  ) =>
    node.type === "VariableDeclaration"
      ? node.declarations.some((d) => d.id.type !== "Identifier" || d.id.name === exported)
      : node.id?.name === exported;
  const hasSideEffects = (id: string) => getModuleInfo(id)?.moduleSideEffects !== false;

  const all = (id: string | undefined) => {
    if (id === undefined || everything.has(id)) return;
    everything.add(id);
    useWhole(id);
    for (const dep of getModuleInfo(id)?.importedIds ?? []) all(dep);
  };

  const useWhole = (id: string | undefined) => {
    if (id === undefined || whole.has(id)) return;
    whole.add(id);
    needed.add(id);
    const info = getModuleInfo(id);
    if (!info || info.isExternal) return;
    const sources = sourcesOf(info);
    if (!sources) return info.importedIds.forEach(useWhole);
    for (const node of info.ast!.body) {
      const dep = source(sources, node);
      if (dep === undefined) continue;
      if (node.type !== "ImportDeclaration") {
        // Passed on, not used here: only its side effects run.
        if (hasSideEffects(dep)) useWhole(dep);
        continue;
      }
      if (node.specifiers.length === 0 || hasSideEffects(dep)) useWhole(dep);
      for (const spec of node.specifiers) {
        if (spec.type === "ImportNamespaceSpecifier") all(dep);
        else useName(dep, spec.type === "ImportDefaultSpecifier" ? "default" : name(spec.imported));
      }
    }
  };

  // `id`'s export `exported`: the module that declares it, reached through those that pass it on.
  const useName = (id: string, exported: string): void => {
    if (whole.has(id) || names.has(`${id}\0${exported}`)) return;
    names.add(`${id}\0${exported}`);
    needed.add(id);
    const info = getModuleInfo(id);
    if (!info || info.isExternal) return;
    const sources = sourcesOf(info);
    if (!sources || hasSideEffects(id)) return useWhole(id);
    const body = info.ast!.body;
    const imported = (local: string) => {
      for (const node of body)
        if (node.type === "ImportDeclaration")
          for (const spec of node.specifiers) if (spec.local.name === local) return { node, spec };
      return undefined;
    };
    for (const node of body) {
      if (node.type === "ExportNamedDeclaration") {
        const spec = node.specifiers.find((s) => name(s.exported) === exported);
        if (!spec) {
          if (node.declaration && declares(node.declaration, exported)) return useWhole(id);
          continue;
        }
        const local = name(spec.local);
        const from = source(sources, node);
        if (from !== undefined) return useName(from, local);
        const imp = imported(local);
        if (!imp) return useWhole(id);
        const dep = source(sources, imp.node)!;
        if (imp.spec.type === "ImportNamespaceSpecifier") return all(dep);
        return useName(dep, imp.spec.type === "ImportDefaultSpecifier" ? "default" : name(imp.spec.imported));
      }
      if (node.type === "ExportAllDeclaration" && node.exported && name(node.exported) === exported)
        return all(source(sources, node));
      if (node.type === "ExportDefaultDeclaration" && exported === "default") return useWhole(id);
    }
    let found = false;
    for (const node of body) {
      const dep = source(sources, node);
      if (node.type === "ExportAllDeclaration" && !node.exported && dep !== undefined) {
        const exports = getModuleInfo(dep)?.exports ?? ["*"];
        if (exports.includes(exported) || exports.includes("*")) {
          found = true;
          useName(dep, exported);
        }
      }
    }
    if (!found) useWhole(id);
  };

  for (const id of roots) useWhole(id);
  return needed;
}
