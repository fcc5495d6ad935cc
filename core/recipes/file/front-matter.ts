/**
 * The YAML front matter of a recipe file, read safely and written deterministically.
 *
 * Reading goes through gray-matter, always with explicit options: called without options it caches every
 * input forever, and its `js`/`javascript` engines `eval` the block (remote code execution through any
 * imported `.md`). Here only YAML is accepted, parsed by the `yaml` package with the core schema (dates stay
 * strings), a bounded alias count, and no tags beyond the core ones.
 */
import matter from "gray-matter";
import { Document, LineCounter, isMap, isScalar, isSeq, parseDocument, visit } from "yaml";
import { RecipeFileError } from "./errors.js";

export type YamlDocument = Document.Parsed;

/** More aliases than any hand-written recipe needs; far fewer than an expansion attack needs. */
export const MAX_YAML_ALIASES = 100;

const CORE_TAGS = new Set(
  ["str", "int", "float", "bool", "null", "map", "seq"].map((t) => `tag:yaml.org,2002:${t}`),
);

/** Thrown inside gray-matter's engine; converted to a RecipeFileError with a line by readFrontMatter. */
class EngineRefusal extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

function refuse(language: string): { parse: () => never } {
  return {
    parse: () => {
      throw new EngineRefusal(
        `front matter must be YAML; a "${language}" block is refused and never evaluated`,
        1,
      );
    },
  };
}

function parseYaml(source: string, out: { doc: YamlDocument | null; lines: LineCounter | null }): object {
  const lines = new LineCounter();
  const doc = parseDocument(source, {
    schema: "core",
    customTags: [],
    resolveKnownTags: false,
    merge: false,
    uniqueKeys: true,
    prettyErrors: true,
    lineCounter: lines,
  });
  const first = doc.errors[0];
  // The pretty message repeats the place ("… at line 4, column 1:") before a snippet; the line is ours to say.
  if (first)
    throw new EngineRefusal(
      first.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, ""),
      first.linePos?.[0].line ?? 1,
    );
  visit(doc, {
    Node(_key, node) {
      if ((isScalar(node) || isMap(node) || isSeq(node)) && node.tag && !CORE_TAGS.has(node.tag)) {
        const line = node.range ? lines.linePos(node.range[0]).line : 1;
        throw new EngineRefusal(`YAML tag ${node.tag} is not allowed`, line);
      }
    },
  });
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (e) {
    throw new EngineRefusal(`front matter refused: ${e instanceof Error ? e.message : String(e)}`, 1);
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new EngineRefusal("front matter must be a mapping of keys to values", 2);
  }
  out.doc = doc;
  out.lines = lines;
  return data;
}

export interface FrontMatter {
  /** Plain data of the YAML block ({} when the file has none). */
  data: Record<string, unknown>;
  /** The Markdown after the closing `---`. */
  body: string;
  /** 1-based line of a top-level key, for error messages (1 when unknown). */
  lineOf(key: string): number;
  /** The parsed YAML, comments included (null when the file has no front matter). */
  yaml?(): YamlDocument | null;
}

/** Splits a recipe file into front matter and body. Throws RecipeFileError for anything but safe YAML. */
export function readFrontMatter(text: string): FrontMatter {
  const out: { doc: YamlDocument | null; lines: LineCounter | null } = { doc: null, lines: null };
  const yamlEngine = { parse: (src: string) => parseYaml(src, out) };
  // gray-matter reads an unclosed front matter to the end of the file: a file caught halfway through
  // an editor's save (`---` and a few lines) would read as a whole recipe and be given an id.
  if (text.startsWith("---")) {
    const firstLineEnd = text.indexOf("\n");
    if (firstLineEnd === -1 || text.indexOf("\n---", firstLineEnd) === -1)
      throw new RecipeFileError("the front matter has no closing --- line", 1);
  }
  let parsed: matter.GrayMatterFile<string>;
  try {
    parsed = matter(text, {
      language: "yaml",
      engines: {
        yaml: yamlEngine,
        yml: yamlEngine,
        js: refuse("js"),
        javascript: refuse("javascript"),
        json: refuse("json"),
        coffee: refuse("coffee"),
        coffeescript: refuse("coffeescript"),
        cson: refuse("cson"),
      },
    });
  } catch (e) {
    if (e instanceof EngineRefusal) throw new RecipeFileError(e.message, e.line);
    // gray-matter's own errors (e.g. an unregistered `---toml` engine).
    throw new RecipeFileError(`front matter refused: ${e instanceof Error ? e.message : String(e)}`, 1);
  }
  const data = (parsed.data ?? {}) as Record<string, unknown>;
  return {
    data,
    body: parsed.content,
    lineOf(key) {
      const { doc, lines } = out;
      if (!doc || !lines || !isMap(doc.contents)) return 1;
      for (const pair of doc.contents.items) {
        if (isScalar(pair.key) && pair.key.value === key && pair.key.range)
          return lines.linePos(pair.key.range[0]).line;
      }
      return 1;
    },
    yaml: () => out.doc,
  };
}

/** A top-level entry of the written front matter; `flow` writes a list as `[a, b]`. */
export interface FrontMatterEntry {
  key: string;
  value: unknown;
  flow?: boolean;
}

/**
 * Writes front matter (with its `---` lines) with keys in the given order. Quoting and escaping are the
 * yaml package's, which quotes a string only when it would otherwise read as something else.
 */
export function writeFrontMatter(
  entries: readonly FrontMatterEntry[],
  finish?: (doc: Document) => void,
): string {
  const doc = new Document({}, { schema: "core" });
  const root = doc.contents;
  if (!isMap(root)) throw new Error("unreachable: empty YAML document is not a map");
  for (const { key, value, flow } of entries) {
    const node = doc.createNode(value);
    if (flow && isSeq(node)) node.flow = true;
    root.add(doc.createPair(key, node));
  }
  // Multi-line text is written double-quoted with `\n` escapes: block scalars cannot hold every string
  // (whitespace-only lines lose their spaces), and one value stays on one line.
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === "string" && /[\n\r\u0085\u2028\u2029]/.test(node.value))
        node.type = "QUOTE_DOUBLE";
    },
  });
  finish?.(doc);
  const yaml = doc.toString({ lineWidth: 0, minContentWidth: 0, flowCollectionPadding: false });
  return `---\n${yaml}---\n`;
}
