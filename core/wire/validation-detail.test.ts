import { describe, expect, it } from "vitest";
import { z } from "zod";
import { validationDetail } from "./validation-detail.js";

const detail = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error("expected a validation error");
  return validationDetail(r.error).map(({ type, loc, msg }) => ({ type, loc, msg }));
};

describe("422 detail in Pydantic's wording", () => {
  it("says 'Field required' with type missing for an absent key", () => {
    expect(detail(z.object({ name: z.string() }), {})).toEqual([
      { type: "missing", loc: ["body", "name"], msg: "Field required" },
    ]);
  });

  it("names the expected type for null or a wrong type, also through a number-or-numeric-string union", () => {
    const num = z.union([z.number(), z.string().regex(/^\d+$/)]);
    expect(detail(z.object({ recipeServings: num.optional() }), { recipeServings: null })).toEqual([
      { type: "float_type", loc: ["body", "recipeServings"], msg: "Input should be a valid number" },
    ]);
    expect(detail(z.object({ tags: z.array(z.string()) }), { tags: "x" })[0]).toMatchObject({
      type: "list_type",
      msg: "Input should be a valid list",
    });
    expect(detail(z.object({ ok: z.boolean() }), { ok: "t" })[0]).toMatchObject({ type: "bool_type" });
  });

  it("types an integer's wrong input as int, not float: int_parsing of a string, int_type of the rest", () => {
    const schema = z.object({ position: z.number().int().nullish(), page: z.number().int().min(1) });
    const withInput = (input: unknown) => {
      const r = schema.safeParse(input);
      if (r.success) throw new Error("expected a validation error");
      return validationDetail(r.error, "body", { value: input }).map(({ type, msg }) => ({ type, msg }));
    };
    expect(withInput({ position: "first", page: 1 })).toEqual([
      { type: "int_parsing", msg: "Input should be a valid integer, unable to parse string as an integer" },
    ]);
    expect(withInput({ position: true, page: 1 })).toEqual([
      { type: "int_type", msg: "Input should be a valid integer" },
    ]);
    expect(withInput({ position: 1.5, page: 1 })).toEqual([
      { type: "int_from_float", msg: "Input should be a valid integer, got a number with a fractional part" },
    ]);
    // A float field is still a number, and a schema's own message is still its own.
    expect(detail(z.object({ n: z.number() }), { n: "x" })[0]).toMatchObject({ type: "float_type" });
    expect(
      detail(z.object({ n: z.number({ error: "n must be a count" }).int() }), { n: "x" })[0],
    ).toMatchObject({
      msg: "n must be a count",
    });
  });

  it("words lengths, bounds, enums and UUIDs as Pydantic does", () => {
    expect(detail(z.object({ a: z.string().min(1) }), { a: "" })[0]).toMatchObject({
      type: "string_too_short",
      msg: "String should have at least 1 character",
    });
    expect(detail(z.object({ a: z.string().max(3) }), { a: "abcd" })[0]).toMatchObject({
      type: "string_too_long",
      msg: "String should have at most 3 characters",
    });
    expect(detail(z.object({ n: z.number().min(1) }), { n: 0 })[0]).toMatchObject({
      type: "greater_than_equal",
      msg: "Input should be greater than or equal to 1",
    });
    expect(
      detail(z.object({ t: z.enum(["breakfast", "lunch", "dinner"]) }), { t: "brunch" })[0],
    ).toMatchObject({
      type: "enum",
      msg: "Input should be 'breakfast', 'lunch' or 'dinner'",
    });
    expect(detail(z.object({ id: z.uuid() }), { id: "nope" })[0]).toMatchObject({
      type: "uuid_parsing",
      msg: "Input should be a valid UUID",
    });
  });

  it("keeps a message the schema wrote itself", () => {
    expect(detail(z.object({ a: z.string().min(1, "Name must not be empty") }), { a: "" })[0]).toMatchObject({
      type: "string_too_short",
      msg: "Name must not be empty",
    });
  });

  it("echoes the input from the parsed value, hides secrets at any depth, and drops a huge echo", () => {
    const items = (schema: z.ZodType, value: unknown) => {
      const r = schema.safeParse(value);
      if (r.success) throw new Error("expected a validation error");
      return validationDetail(r.error, "body", { value });
    };
    const user = z.object({ username: z.string(), password: z.string(), nested: z.object({ n: z.int() }) });
    const got = items(user, { password: 5, nested: { n: 1.5, apiKey: "k-123" } });
    expect(got).toEqual([
      {
        type: "missing",
        loc: ["body", "username"],
        msg: "Field required",
        input: { password: "**********", nested: { n: 1.5, apiKey: "**********" } },
      },
      {
        type: "string_type",
        loc: ["body", "password"],
        msg: "Input should be a valid string",
        input: "**********",
      },
      {
        type: "int_from_float",
        loc: ["body", "nested", "n"],
        msg: "Input should be a valid integer, got a number with a fractional part",
        input: 1.5,
      },
    ]);
    const big = { name: 1, junk: "x".repeat(10_000) };
    expect(items(z.object({ name: z.string(), other: z.string() }), big)[1]).toMatchObject({
      type: "missing",
      input: null,
    });
    // Without the parsed value, nothing is echoed.
    const r = user.safeParse({});
    expect(r.success || validationDetail(r.error)[0].input).toBeNull();
  });
});
