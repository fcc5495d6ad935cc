/**
 * The hostile requests for one operation: structural bodies (malformed, wrong type, deep, huge,
 * prototype keys, wrong content type), a hostile value in each field of an otherwise plausible body,
 * hostile query strings and parameters, hostile path parameters and multipart file names. The choice
 * among the values is seeded by the operation, so every run sends the same requests.
 */
import type { Outgoing } from "./wire.js";
import {
  HOSTILE_DATES,
  HOSTILE_IDS,
  HOSTILE_NUMBERS,
  HOSTILE_SHAPES,
  HOSTILE_STRINGS,
  MARK,
  TEN_THOUSAND_CLAUSES,
  deepArray,
  deepObject,
  pick,
  seedOf,
  seeded,
  toJson,
} from "./hostile-values.js";
import { baseValue, fillPath, FUZZ_URL, type Contract, type Operation, type Schema } from "./operations.js";
import type { Stored } from "./fixtures.js";
import { formVariants, multipartVariants, pathVariants, queryVariants } from "./request-variants.js";

export interface Variant extends Outgoing {
  label: string;
}

/** How many one-field variants each operation gets: enough to touch most fields of small bodies. */
const MIN_FIELD_VARIANTS = 6;

/** The JSON body limit the fuzz's server runs with (`maxJsonBody`): small, so the bodies at it are cheap. */
export const JSON_LIMIT = 300_000;

const JSON_TYPE = { "Content-Type": "application/json" };

let counter = 0;

/** Paths to the fields of a value, one level into objects and arrays of objects. */
export function fieldPaths(
  c: Contract,
  schema: Schema,
  prefix: (string | number)[] = [],
  depth = 0,
): (string | number)[][] {
  const r = c.core(schema);
  if (r.type === "array")
    return depth < 2 ? fieldPaths(c, (r.items as Schema) ?? {}, [...prefix, 0], depth + 1) : [];
  const out: (string | number)[][] = [];
  for (const [k, p] of Object.entries(c.properties(r))) {
    out.push([...prefix, k]);
    if (depth < 1) out.push(...fieldPaths(c, p, [...prefix, k], depth + 1));
  }
  return out;
}

function schemaAt(c: Contract, schema: Schema, path: (string | number)[]): Schema {
  let cur = c.core(schema);
  for (const step of path) {
    if (typeof step === "number") cur = c.core((cur.items as Schema) ?? {});
    else cur = c.core(c.properties(cur)[step] ?? {});
  }
  return cur;
}

/**
 * `root` with `value` at `path`; an object or list on the way that the base left out is made from its
 * schema, so the hostile value sits in an otherwise plausible item rather than beside missing fields.
 */
function setIn(
  c: Contract,
  schema: Schema,
  root: unknown,
  path: (string | number)[],
  value: unknown,
  s: Stored,
): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let cur = copy;
  for (let i = 0; i < path.length - 1; i++) {
    const step = path[i];
    if (cur[step] === null || typeof cur[step] !== "object")
      cur[step] = baseValue(c, schemaAt(c, schema, path.slice(0, i + 1)), s, ++counter, String(step), 1);
    if (cur[step] === null || typeof cur[step] !== "object")
      cur[step] = typeof path[i + 1] === "number" ? [] : {};
    cur = cur[step] as Record<string | number, unknown>;
  }
  cur[path[path.length - 1]] = value;
  return copy;
}

function setAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(root);
  let cur = copy as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i++) {
    const step = path[i];
    if (cur[step] === null || typeof cur[step] !== "object")
      cur[step] = typeof path[i + 1] === "number" ? [] : {};
    cur = cur[step] as Record<string | number, unknown>;
  }
  cur[path[path.length - 1]] = value;
  return copy;
}

/** A hostile value for a field of schema `s` named `name`: of its own kind half of the time. */
function hostileFor(rnd: () => number, s: Schema, name: string): unknown {
  if (rnd() < 0.4) return rnd() < 0.5 ? pick(rnd, HOSTILE_SHAPES)() : pick(rnd, HOSTILE_STRINGS);
  if (/queryFilter/i.test(name))
    return pick(rnd, [TEN_THOUSAND_CLAUSES, '((name = "x"', 'name = "', "a".repeat(50_000)]);
  const fmt = s.format as string | undefined;
  if (fmt === "date" || fmt === "date-time" || fmt === "time") return pick(rnd, HOSTILE_DATES);
  if (fmt === "uuid" || fmt === "uuid4" || /id$/i.test(name)) return pick(rnd, HOSTILE_IDS);
  if (s.type === "integer" || s.type === "number") return pick(rnd, HOSTILE_NUMBERS);
  if (s.type === "array") return pick(rnd, HOSTILE_SHAPES)();
  return pick(rnd, HOSTILE_STRINGS);
}

/**
 * `LARDER_FUZZ_DEEP=1`: every hostile value of a field's kind in every field, rather than one seeded
 * pick (some 20,000 requests; minutes, not for the routine run).
 */
export const DEEP = process.env.LARDER_FUZZ_DEEP === "1";

const isDate = (s: Schema) => ["date", "date-time", "time"].includes(s.format as string);

function everyHostile(s: Schema, name: string): unknown[] {
  const fmt = s.format as string | undefined;
  const shapes = HOSTILE_SHAPES.map((f) => f());
  if (fmt === "date" || fmt === "date-time" || fmt === "time") return [...HOSTILE_DATES, ...shapes];
  if (fmt === "uuid" || fmt === "uuid4" || /id$/i.test(name)) return [...HOSTILE_IDS, ...shapes];
  if (s.type === "integer" || s.type === "number") return [...HOSTILE_NUMBERS, ...shapes];
  return [...HOSTILE_STRINGS, ...shapes];
}

function jsonVariants(c: Contract, op: Operation, path: string, s: Stored, rnd: () => number): Variant[] {
  const schema = op.body!.schema;
  const base = () => baseValue(c, schema, s, ++counter);
  const b = base();
  const text = toJson(b);
  const v = (label: string, body: string, headers: Record<string, string> = JSON_TYPE): Variant => ({
    label,
    method: op.method,
    path,
    headers,
    body,
  });
  const objectText = text.startsWith("{") ? text : '{"a":1}';
  const out: Variant[] = [
    v("malformed JSON", '{"name": "x",'),
    v("empty body", ""),
    v("null body", "null"),
    v("an array for the body", "[]"),
    v("a string for the body", '"text"'),
    v("1e309 for the body", "1e309"),
    v("objects nested 50,000 deep", deepObject(50_000)),
    v("arrays nested 50,000 deep", deepArray(50_000)),
    v(
      "__proto__ and constructor keys",
      `{"__proto__":{"admin":true,"polluted":"${MARK}"},"constructor":{"prototype":{"polluted":1}},${objectText.slice(1)}`,
    ),
    v("a key given twice", objectText.replace(/^\{/, '{"name":{"nested":[1]},"id":{"x":1},')),
    v(
      "a string just under the body limit",
      toJson(setAt(b, Array.isArray(b) ? [0, "name"] : ["name"], "n".repeat(JSON_LIMIT - 2_000))),
    ),
    v("a body over the limit", `{"name":"${"n".repeat(JSON_LIMIT + 10)}"}`),
    v("JSON sent as text/plain", text, { "Content-Type": "text/plain" }),
    v("JSON sent as a form", text, { "Content-Type": "application/x-www-form-urlencoded" }),
    v("JSON with a charset that is not UTF-8", text, { "Content-Type": "application/json; charset=utf-16" }),
    v(
      "bytes that are not UTF-8",
      Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]).toString("latin1"),
      JSON_TYPE,
    ),
  ];
  // Every field once, then seeded picks up to the minimum: each field of every body meets a hostile value.
  const fields = fieldPaths(c, schema);
  const targets = [...fields];
  while (fields.length && targets.length < MIN_FIELD_VARIANTS) targets.push(pick(rnd, fields));
  for (const at of targets) {
    const name = String([...at].reverse().find((x) => typeof x === "string") ?? "");
    const field = schemaAt(c, schema, at);
    // Dates broke reads twice (30 February, the year -1 stored and served): each date field gets them all.
    const values = DEEP
      ? everyHostile(field, name)
      : isDate(field)
        ? HOSTILE_DATES
        : [hostileFor(rnd, field, name)];
    for (const value of values) {
      const shown = JSON.stringify(value)?.slice(0, 40);
      out.push(v(`${at.join(".")} = ${shown}`, toJson(setIn(c, schema, base(), at, value, s))));
    }
  }
  return out;
}

/** Every hostile request for one operation, the same on every run. */
export function variantsOf(c: Contract, op: Operation, s: Stored): Variant[] {
  const rnd = seeded(seedOf(`${op.method} ${op.template}`));
  const path = fillPath(op.template, s);
  const out: Variant[] = [];
  let plainBody: Variant | undefined;
  if (op.body?.kind === "json") {
    const body = jsonVariants(c, op, path, s, rnd);
    plainBody = {
      label: "base",
      method: op.method,
      path,
      headers: JSON_TYPE,
      body: toJson(baseValue(c, op.body.schema, s, ++counter)),
    };
    out.push(...body);
  } else if (op.body?.kind === "form") out.push(...formVariants(op, path, rnd));
  else if (op.body?.kind === "multipart") out.push(...multipartVariants(c, op, path, s, rnd));
  if (op.query.length) out.push(...queryVariants(c, op, path, s, rnd));
  if (op.method !== "DELETE") out.push(...pathVariants(op, s, plainBody));
  // Error messages are translated by Accept-Language: every other request asks for a language, some
  // in words that name an object's own keys, so a translation table is looked up with hostile text.
  return out.map((v, i) =>
    offline(
      op,
      i % 2
        ? { ...v, headers: { ...v.headers, "Accept-Language": LANGUAGES[(i >> 1) % LANGUAGES.length] } }
        : v,
    ),
  );
}

/** Operations that fetch the URL they are sent while the request waits. */
const FETCHES_NOW = /^\/api\/recipes\/(test-scrape-url|create\/url|\{slug\}\/image$)/;

/**
 * The base bodies name `fuzz.invalid` for a URL, which stores fine (a webhook, a recipe action); an
 * operation that fetches at once gets a loopback address instead, which the fetch guard refuses
 * before any DNS query, so no run waits on this machine's resolver.
 */
function offline(op: Operation, v: Variant): Variant {
  if (!FETCHES_NOW.test(op.template) || typeof v.body !== "string") return v;
  return { ...v, body: v.body.replaceAll(FUZZ_URL, "http://127.0.0.1:1/fuzz") };
}

const LANGUAGES = [
  "de",
  "__proto__",
  "fr;q=0.5, constructor;q=0.9",
  "ar",
  "*;q=NaN, he;q=1e309",
  "x".repeat(2000),
  "nl-NL",
];

/** The plausible body of a write, named the same for every copy: what a double-clicked button sends. */
export function concurrentWrite(c: Contract, op: Operation, s: Stored): Variant {
  const body = baseValue(c, op.body!.schema, s, ++counter);
  return offline(op, {
    label: "concurrent",
    method: op.method,
    path: fillPath(op.template, s),
    headers: JSON_TYPE,
    body: toJson(body),
  });
}
