/**
 * Zod issues → the items of FastAPI's 422 `detail`, with Pydantic v2's `type` and `msg` wording for the
 * common cases, so that clients which show Mealie's messages ("Field required", "Input should be a valid
 * number") show sensible ones here. A message a schema wrote itself is kept: it says more.
 */
import type { ZodError } from "zod";

type Issue = ZodError["issues"][number];

export interface DetailItem {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx: Record<string, unknown>;
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

/** Zod's own messages start like this; anything else was written by a schema and is kept. */
const ZOD_DEFAULT =
  /^(Invalid input|Invalid option|Too small|Too big|Invalid (UUID|email|string|date|ISO|URL|url)|Unrecognized key)/;

export function validationDetail(error: ZodError, where: "body" | "query" | "path" = "body"): DetailItem[] {
  return error.issues.map((issue) => {
    const loc = [where, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
    const [type, pydanticMsg, ctx] = pydantic(issue);
    const msg = ZOD_DEFAULT.test(issue.message) ? pydanticMsg : issue.message;
    return { type, loc, msg, input: null, ctx };
  });
}

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
    default:
      return ["value_error", issue.message, {}];
  }
}
