/**
 * Zod issues → the items of FastAPI's 422 `detail`, with Pydantic v2's `type` and `msg` wording for the
 * common cases, so that clients which show Mealie's messages ("Field required", "Input should be a valid
 * number") show sensible ones here. A message a schema wrote itself is kept: it says more.
 *
 * `input` is what Pydantic echoes (decision 0272): the offending value, or for a missing field the
 * object it is missing from, read from the request body at the issue's path. Unlike Pydantic, the value
 * of any secret-named key (password, token, secret, key) is never echoed, at any depth, and a very large
 * input is not echoed at all. `ctx` is sent only when Pydantic gives one.
 */
import { z, type ZodError } from "zod";

type Issue = ZodError["issues"][number];

export interface DetailItem {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** What a request carried, when the failing parse read it: the issues' paths are paths into `value`. */
export interface IssueSource {
  value: unknown;
}

/** Pydantic's type name and message for a wrong JSON type, by the type zod expected. */
const TYPE_ERRORS: Record<string, [string, string]> = {
  string: ["string_type", "Input should be a valid string"],
  number: ["float_type", "Input should be a valid number"],
  int: ["int_type", "Input should be a valid integer"],
  boolean: ["bool_type", "Input should be a valid boolean"],
  array: ["list_type", "Input should be a valid list"],
  object: ["dict_type", "Input should be a valid dictionary"],
  record: ["dict_type", "Input should be a valid dictionary"],
  date: ["datetime_type", "Input should be a valid datetime"],
};

/**
 * Zod says "expected number" of an integer too, where Pydantic says `int_type` (`int_parsing` of a
 * string). Only the issue's maker sees the schema, so the issue is marked there, for any schema that
 * wrote no message of its own (zod's global error map comes after a schema's own).
 */
const INT_MESSAGE = "Input should be a valid integer";
z.config({
  customError: (iss) =>
    iss.code === "invalid_type" &&
    iss.expected === "number" &&
    (iss.inst as { isInt?: unknown })?.isInt === true
      ? INT_MESSAGE
      : undefined,
});

/** Zod's own messages start like this; anything else was written by a schema and is kept. */
const ZOD_DEFAULT =
  /^(Invalid input|Invalid option|Too small|Too big|Invalid (UUID|email|string|date|ISO|URL|url)|Unrecognized key)/;

/**
 * `source` is what was parsed (the issues' paths lead into it); `at` is where that sits in the request
 * (an item's index in a bulk body), placed between `where` and each issue's path.
 */
export function validationDetail(
  error: ZodError,
  where: "body" | "query" | "path" = "body",
  source: IssueSource | null = null,
  at: readonly (string | number)[] = [],
): DetailItem[] {
  return error.issues.map((issue) => {
    const path = issue.path.map((p) => (typeof p === "symbol" ? String(p) : p));
    const loc = [where, ...at, ...path];
    const found = source ? locate(source.value, path) : null;
    let [type, pydanticMsg, ctx] = pydantic(issue);
    // A key that is absent is Pydantic's "missing", whatever message the schema gave its type check.
    if (found?.absent && (issue.code === "invalid_type" || issue.message === "Field required"))
      [type, pydanticMsg, ctx] = ["missing", "Field required", {}];
    else if (found && !found.absent) [type, pydanticMsg] = parsingType(type, pydanticMsg, found.value);
    const msg =
      ZOD_DEFAULT.test(issue.message) || issue.message === INT_MESSAGE || type === "missing"
        ? pydanticMsg
        : issue.message;
    const input = found ? echoed(path, found.absent ? found.parent : found.value) : null;
    return Object.keys(ctx).length ? { type, loc, msg, input, ctx } : { type, loc, msg, input };
  });
}

/** The value at `path`, or (`absent`) the object that lacks its last key; null when the path leads nowhere. */
function locate(
  value: unknown,
  path: readonly (string | number)[],
): { absent: false; value: unknown } | { absent: true; parent: unknown } | null {
  let here = value;
  for (let i = 0; i < path.length; i++) {
    if (here === null || typeof here !== "object") return null;
    const key = path[i];
    if (!Object.prototype.hasOwnProperty.call(here, key))
      return i === path.length - 1 ? { absent: true, parent: here } : null;
    here = (here as Record<string | number, unknown>)[key];
  }
  return { absent: false, value: here };
}

/** Keys whose values are secrets: Pydantic echoes them; Larder never does. */
const SECRET_KEY = /pass(word)?|secret|token|api_?key|private_?key|credential/i;
const HIDDEN = "**********";
/** Larger echoes are dropped: a 422 must not grow with the body it refuses (one echo per issue). */
const MAX_ECHO_CHARS = 4096;

function echoed(path: readonly (string | number)[], value: unknown): unknown {
  if (path.some((p) => typeof p === "string" && SECRET_KEY.test(p))) return HIDDEN;
  const hidden = hideSecrets(value, 0);
  if (hidden !== null && typeof hidden === "object" && JSON.stringify(hidden).length > MAX_ECHO_CHARS)
    return null;
  if (typeof hidden === "string" && hidden.length > MAX_ECHO_CHARS) return null;
  return hidden;
}

function hideSecrets(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth > 20) return null;
  if (Array.isArray(value)) return value.map((v) => hideSecrets(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    out[k] = SECRET_KEY.test(k) ? HIDDEN : hideSecrets(v, depth + 1);
  return out;
}

/**
 * Pydantic's lax mode takes a string for a number or a boolean and says, when it cannot, that it could
 * not parse it (`int_parsing`), and a number with a fraction for an integer is `int_from_float`.
 */
function parsingType(type: string, msg: string, input: unknown): [string, string] {
  if (typeof input === "string") {
    if (type === "float_type")
      return ["float_parsing", "Input should be a valid number, unable to parse string as a number"];
    if (type === "int_type")
      return ["int_parsing", "Input should be a valid integer, unable to parse string as an integer"];
    if (type === "bool_type")
      return ["bool_parsing", "Input should be a valid boolean, unable to interpret input"];
  }
  if (type === "int_type" && typeof input === "number" && Number.isFinite(input) && !Number.isInteger(input))
    return ["int_from_float", "Input should be a valid integer, got a number with a fractional part"];
  return [type, msg];
}

/** Messages schemas write in Pydantic's own words (a refine's), and the type Pydantic gives them. */
const TYPE_BY_MESSAGE: Record<string, string> = {
  "Input should be a valid UUID": "uuid_parsing",
  "Input should be a valid number": "float_type",
  "Input should be a valid integer": "int_type",
  "Input should be a valid string": "string_type",
  "Field required": "missing",
};

function pydantic(issue: Issue): [string, string, Record<string, unknown>] {
  switch (issue.code) {
    case "invalid_union": {
      // A field that takes a number or a numeric string: the first alternative says what was meant.
      const first = issue.errors[0]?.[0];
      return first ? pydantic(first as Issue) : ["value_error", issue.message, {}];
    }
    case "invalid_type": {
      // Zod reports a key that is absent as "received undefined": Pydantic's "missing".
      if (/received undefined$/.test(issue.message)) return ["missing", "Field required", {}];
      if (issue.message === INT_MESSAGE) return ["int_type", INT_MESSAGE, {}];
      const known = TYPE_ERRORS[issue.expected] ?? [
        "value_error",
        `Input should be a valid ${issue.expected}`,
      ];
      return [known[0], known[1], {}];
    }
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string")
        return [
          "string_too_short",
          `String should have at least ${min} character${min === 1 ? "" : "s"}`,
          { min_length: min },
        ];
      if (issue.origin === "array")
        return [
          "too_short",
          `List should have at least ${min} item${min === 1 ? "" : "s"} after validation`,
          { min_length: min },
        ];
      return issue.inclusive
        ? ["greater_than_equal", `Input should be greater than or equal to ${min}`, { ge: min }]
        : ["greater_than", `Input should be greater than ${min}`, { gt: min }];
    }
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string")
        return [
          "string_too_long",
          `String should have at most ${max} character${max === 1 ? "" : "s"}`,
          { max_length: max },
        ];
      if (issue.origin === "array")
        return [
          "too_long",
          `List should have at most ${max} item${max === 1 ? "" : "s"} after validation`,
          { max_length: max },
        ];
      return issue.inclusive
        ? ["less_than_equal", `Input should be less than or equal to ${max}`, { le: max }]
        : ["less_than", `Input should be less than ${max}`, { lt: max }];
    }
    case "invalid_value": {
      const values = issue.values.map((v) => `'${String(v)}'`);
      const expected =
        values.length > 1
          ? `${values.slice(0, -1).join(", ")} or ${values[values.length - 1]}`
          : (values[0] ?? "");
      return ["enum", `Input should be ${expected}`, { expected }];
    }
    case "invalid_format":
      if (issue.format === "uuid" || issue.format === "guid")
        return ["uuid_parsing", "Input should be a valid UUID", {}];
      if (issue.format === "email") return ["value_error", "value is not a valid email address", {}];
      if (issue.format === "datetime" || issue.format === "date")
        return ["datetime_from_date_parsing", "Input should be a valid datetime or date", {}];
      return ["string_pattern_mismatch", issue.message, {}];
    default: {
      const known = TYPE_BY_MESSAGE[issue.message];
      return known ? [known, issue.message, {}] : ["value_error", issue.message, {}];
    }
  }
}
