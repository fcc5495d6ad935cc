/**
 * Mealie's `queryFilter` language (mealie-api-notes §3): tokenizer and recursive-descent parser to an
 * AST, plus the `{parts:[...]}` JSON form that cookbooks and meal-plan rules store.
 *
 * Grammar (parentheses group; AND and OR have equal precedence and combine from the right, as
 * Mealie's query builder folds them — `a AND b OR c` is `a AND (b OR c)`; decision 0061):
 *   chain := group (("AND" | "OR") group)*
 *   group := "(" chain ")" | cmp
 *   cmp   := attribute op value
 * The parser only checks syntax; attribute names and value types are checked when the AST is compiled
 * against an attribute table (filter-eval.ts), so both kinds of error surface before any item is read.
 */
import { BadRequestError } from "../errors.js";
import { resolveNow } from "./now-placeholder.js";

export type RelationalOperator =
  | "="
  | "<>"
  | ">"
  | "<"
  | ">="
  | "<="
  | "IS"
  | "IS NOT"
  | "IN"
  | "NOT IN"
  | "CONTAINS ALL"
  | "LIKE"
  | "NOT LIKE";
export type LogicalOperator = "AND" | "OR";

export interface Comparison {
  kind: "cmp";
  attribute: string;
  op: RelationalOperator;
  /** A string for scalar operators, a list for IN / NOT IN / CONTAINS ALL, null for IS / IS NOT. */
  value: string | string[] | null;
  /**
   * The value as written (quotes stripped), kept for the stored JSON form (`"TRUE"`, `"null"`,
   * `"$NOW-7d"`, which must stay relative); `value` has `$NOW` resolved to the time of parsing.
   */
  raw: string | string[];
}
export interface Logical {
  kind: "and" | "or";
  children: FilterNode[];
}
export type FilterNode = Comparison | Logical;

/** One part of Mealie's stored filter JSON (`queryFilter.parts`), camelCase as on the wire. */
export interface QueryFilterPart {
  leftParenthesis: string | null;
  rightParenthesis: string | null;
  logicalOperator: LogicalOperator | null;
  attributeName: string;
  relationalOperator: RelationalOperator;
  value: string | string[];
}

/** A 400 with Mealie's plain-string detail, `invalid query string: ...`. */
export function invalidQuery(reason: string): BadRequestError {
  const text = `invalid query string: ${reason}`;
  return new BadRequestError(text, text);
}

type Token =
  | { t: "lparen"; pos: number }
  | { t: "rparen"; pos: number }
  | { t: "word"; text: string; pos: number }
  | { t: "string"; text: string; pos: number }
  | { t: "op"; text: RelationalOperator; pos: number }
  | { t: "list"; items: string[]; pos: number };

const SYMBOLS: readonly RelationalOperator[] = [">=", "<=", "<>", "=", ">", "<"];
// A bare word ends at whitespace or at any character with a meaning of its own, which is why
// `createdAt>"2024-01-01"` needs no spaces.
const WORD_STOP = /[\s()[\]",<>=]/;

/**
 * A quoted value from `start`, which holds its opening quote: `"…"` as in Mealie, or `'…'` as SQL
 * writes it (Mealie keeps single quotes as part of the value, which then matches nothing; decision
 * 0266). An apostrophe inside a bare word (`Grandma's`) does not open a quote.
 */
function readQuoted(src: string, start: number): { text: string; end: number } {
  const close = src.indexOf(src[start], start + 1);
  if (close < 0) throw invalidQuery("unterminated quoted string");
  return { text: src.slice(start + 1, close), end: close + 1 };
}

function readList(src: string, start: number): { items: string[]; end: number } {
  const items: string[] = [];
  let i = start + 1;
  let current = "";
  let quoted = false;
  for (;;) {
    if (i >= src.length) throw invalidQuery("unterminated list, expected ']'");
    const c = src[i];
    if (c === '"' && (quoted || current.trim() !== "")) {
      throw invalidQuery("a list item must be either quoted or bare");
    } else if ((c === '"' || c === "'") && !quoted && current.trim() === "") {
      const q = readQuoted(src, i);
      current = q.text;
      quoted = true;
      i = q.end;
    } else if (c === "," || c === "]") {
      const item = quoted ? current : current.trim();
      // An empty bare item comes from a trailing comma or `[]`: skipped rather than matched as "".
      if (quoted || item !== "") items.push(item);
      current = "";
      quoted = false;
      i++;
      if (c === "]") return { items, end: i };
    } else if (c === "[") {
      throw invalidQuery("nested lists are not supported");
    } else {
      // After a quoted item only whitespace may come before the separator.
      if (quoted && !/\s/.test(c)) throw invalidQuery("a list item must be either quoted or bare");
      if (!quoted) current += c;
      i++;
    }
  }
}

/** Split a filter string into tokens; quotes are stripped, lists are read whole. */
export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === "(") {
      out.push({ t: "lparen", pos: i++ });
    } else if (c === ")") {
      out.push({ t: "rparen", pos: i++ });
    } else if (c === '"' || c === "'") {
      const q = readQuoted(src, i);
      out.push({ t: "string", text: q.text, pos: i });
      i = q.end;
    } else if (c === "[") {
      const l = readList(src, i);
      out.push({ t: "list", items: l.items, pos: i });
      i = l.end;
    } else if (c === "]" || c === ",") {
      throw invalidQuery(`unexpected '${c}' outside a list`);
    } else if (c === "<" || c === ">" || c === "=") {
      const op = SYMBOLS.find((s) => src.startsWith(s, i));
      if (!op) throw invalidQuery(`unknown operator at position ${i}`);
      out.push({ t: "op", text: op, pos: i });
      i += op.length;
    } else {
      let j = i;
      while (j < src.length && !WORD_STOP.test(src[j])) j++;
      out.push({ t: "word", text: src.slice(i, j), pos: i });
      i = j;
    }
  }
  return out;
}

function isKeyword(tok: Token | undefined, kw: string): boolean {
  return tok !== undefined && tok.t === "word" && tok.text.toUpperCase() === kw;
}

function checkBalanced(tokens: Token[]): void {
  let depth = 0;
  for (const tok of tokens) {
    if (tok.t === "lparen") depth++;
    else if (tok.t === "rparen" && --depth < 0) break;
  }
  if (depth !== 0) throw invalidQuery("parenthesis are unbalanced");
}

function describe(tok: Token | undefined): string {
  if (!tok) return "end of filter";
  switch (tok.t) {
    case "lparen":
      return "'('";
    case "rparen":
      return "')'";
    case "list":
      return "a list";
    default:
      return `'${tok.text}'`;
  }
}

const LIST_OPS = new Set<RelationalOperator>(["IN", "NOT IN", "CONTAINS ALL"]);

/**
 * Deepest parenthesis nesting read. The parser and the compiler recurse once per level: some 5,000
 * levels (a 10,000-character cookbook filter) overflowed the stack into a 500. No written filter
 * comes near this.
 */
export const MAX_NESTING = 100;

class Parser {
  private i = 0;
  /** Flat record of comparisons with their surrounding parentheses, for the JSON form. */
  readonly parts: QueryFilterPart[] = [];
  private pendingLeft = 0;
  private pendingLogical: LogicalOperator | null = null;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): FilterNode {
    const node = this.chain();
    if (this.i < this.tokens.length)
      throw invalidQuery(`unexpected ${describe(this.tokens[this.i])}, expected AND or OR`);
    return node;
  }

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  /**
   * Groups joined by AND/OR, folded from the right with no precedence between the two, exactly as
   * Mealie's builder does (it pops operators from the end of the group): clients written against
   * Mealie must select the same items here.
   */
  private chain(): FilterNode {
    const groups = [this.group()];
    const ops: LogicalOperator[] = [];
    for (;;) {
      const op = isKeyword(this.peek(), "AND") ? "AND" : isKeyword(this.peek(), "OR") ? "OR" : null;
      if (!op) break;
      this.i++;
      this.pendingLogical = op;
      ops.push(op);
      groups.push(this.group());
    }
    let node = groups[groups.length - 1];
    for (let k = ops.length - 1; k >= 0; k--) {
      const kind = ops[k] === "AND" ? "and" : "or";
      // AND and OR are each associative, so a run of one operator is kept as one flat node.
      const rest = node.kind === kind ? (node as Logical).children : [node];
      node = { kind, children: [groups[k], ...rest] };
    }
    return node;
  }

  private group(): FilterNode {
    const tok = this.peek();
    if (tok?.t === "lparen") {
      if (++this.depth > MAX_NESTING)
        throw invalidQuery(`parentheses are nested more than ${MAX_NESTING} levels deep`);
      this.i++;
      this.pendingLeft++;
      if (this.peek()?.t === "rparen") throw invalidQuery("empty parentheses");
      const inner = this.chain();
      this.depth--;
      if (this.peek()?.t !== "rparen") throw invalidQuery(`expected ')' but found ${describe(this.peek())}`);
      this.i++;
      const last = this.parts[this.parts.length - 1];
      last.rightParenthesis = (last.rightParenthesis ?? "") + ")";
      return inner;
    }
    return this.comparison();
  }

  private operator(attribute: string): RelationalOperator {
    const tok = this.peek();
    if (tok?.t === "op") {
      this.i++;
      return tok.text;
    }
    const next = this.tokens[this.i + 1];
    const two = (a: string, b: string) => isKeyword(tok, a) && isKeyword(next, b);
    let op: RelationalOperator | null = null;
    let width = 1;
    if (two("IS", "NOT")) [op, width] = ["IS NOT", 2];
    else if (two("NOT", "IN")) [op, width] = ["NOT IN", 2];
    else if (two("NOT", "LIKE")) [op, width] = ["NOT LIKE", 2];
    else if (two("CONTAINS", "ALL")) [op, width] = ["CONTAINS ALL", 2];
    else if (isKeyword(tok, "IS")) op = "IS";
    else if (isKeyword(tok, "IN")) op = "IN";
    else if (isKeyword(tok, "LIKE")) op = "LIKE";
    if (!op) throw invalidQuery(`expected an operator after '${attribute}' but found ${describe(tok)}`);
    this.i += width;
    return op;
  }

  private comparison(): Comparison {
    const attrTok = this.peek();
    if (!attrTok || (attrTok.t !== "word" && attrTok.t !== "string") || attrTok.text === "") {
      throw invalidQuery(`expected an attribute name but found ${describe(attrTok)}`);
    }
    this.i++;
    const attribute = attrTok.text;
    const op = this.operator(attribute);
    const valTok = this.peek();
    if (!valTok || valTok.t === "lparen" || valTok.t === "rparen" || valTok.t === "op") {
      throw invalidQuery(`expected a value after '${attribute} ${op}' but found ${describe(valTok)}`);
    }
    this.i++;
    let value: string | string[] | null;
    let raw: string | string[];
    if (valTok.t === "list") {
      if (!LIST_OPS.has(op))
        throw invalidQuery(`a list can only be used with IN, NOT IN or CONTAINS ALL, not '${op}'`);
      raw = valTok.items;
      value = raw.map((v) => resolveNow(v));
    } else if (LIST_OPS.has(op)) {
      throw invalidQuery(`'${op}' must be followed by a list of values, e.g. [a, b]`);
    } else if (op === "IS" || op === "IS NOT") {
      const v = valTok.text.toUpperCase();
      if (v !== "NULL" && v !== "NONE")
        throw invalidQuery(`'${op}' can only be used with 'NULL' or 'NONE', not '${valTok.text}'`);
      value = null;
      raw = valTok.text;
    } else {
      raw = valTok.text;
      value = resolveNow(raw);
    }
    this.parts.push({
      leftParenthesis: this.pendingLeft ? "(".repeat(this.pendingLeft) : null,
      rightParenthesis: null,
      logicalOperator: this.parts.length ? this.pendingLogical : null,
      attributeName: snakePath(attribute),
      relationalOperator: op,
      value: raw,
    });
    this.pendingLeft = 0;
    this.pendingLogical = null;
    return { kind: "cmp", attribute, op, value, raw };
  }
}

/** `recipeCategory.id` → `recipe_category.id`, the spelling Mealie stores in `attributeName`. */
export function snakePath(path: string): string {
  return path
    .split(".")
    .map((seg) => seg.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase())
    .join(".");
}

function parseWithParts(src: string): { node: FilterNode; parts: QueryFilterPart[] } | null {
  const tokens = tokenize(src);
  if (tokens.length === 0) return null;
  checkBalanced(tokens);
  const parser = new Parser(tokens);
  const node = parser.parse();
  return { node, parts: parser.parts };
}

/** Parse a filter string; null when it is blank (no filter). Throws BadRequestError (400). */
export function parseQueryFilter(src: string | null | undefined): FilterNode | null {
  if (src == null) return null;
  return parseWithParts(src)?.node ?? null;
}

/** The stored JSON form (`{parts:[...]}`) of a filter string, as cookbooks and meal-plan rules keep it. */
export function queryFilterParts(src: string | null | undefined): { parts: QueryFilterPart[] } {
  if (src == null) return { parts: [] };
  return { parts: parseWithParts(src)?.parts ?? [] };
}
