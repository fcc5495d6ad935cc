/**
 * /api/parser/ingredient(s) (mealie-api-notes §4.11, §13) on a real server: Mealie's response shape,
 * matching against the group's seeded foods and units, the three parsers (openai against a stand-in on
 * loopback), and hostile input answered with a result or a 422, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChatStandIn, type ChatStandIn } from "../../core/ai/test-support.js";
import { assertContract, hasContract } from "../support/contract.js";
import { startTestServer, type TestServer } from "../support/server.js";

let t: TestServer;
let token: string;
let standIn: ChatStandIn;
beforeAll(async () => {
  standIn = await startChatStandIn();
  t = await startTestServer({
    fetchAllow: "127.0.0.1",
    openai: { BASE_URL: standIn.baseUrl, API_KEY: "sk-test", MODEL: "stand-in-model" },
  });
  token = await t.login();
});
afterAll(async () => {
  await t?.close();
  await standIn?.close();
});

type Parsed = {
  input: string;
  confidence: Record<string, number | null>;
  ingredient: {
    quantity: number;
    unit: { id: string | null; name: string } | null;
    food: { id: string | null; name: string } | null;
    note: string;
    display: string;
    originalText: string | null;
  };
};
const one = (json: unknown, tok: string | null = token) =>
  t.api("/api/parser/ingredient", { method: "POST", token: tok, json });
const many = (json: unknown) => t.api("/api/parser/ingredients", { method: "POST", token, json });

describe("/api/parser", () => {
  it("parses one line with nlp by default, matching the group's unit and food, in ParsedIngredient's shape", async () => {
    const res = await one({ ingredient: "2 tablespoons olive oil, divided" });
    expect(res.status).toBe(200);
    const p = (await res.json()) as Parsed;
    if (hasContract) assertContract("ParsedIngredient", p);
    expect(p.ingredient.quantity).toBe(2);
    expect(p.ingredient.unit).toMatchObject({ name: "tablespoon" });
    expect(p.ingredient.unit?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(p.ingredient.food).toMatchObject({ name: "olive oil" });
    expect(p.ingredient.food?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(p.ingredient.note).toBe("divided");
    expect(p.ingredient.display).toBe("2 tbsp olive oil divided");
    for (const k of ["average", "quantity", "unit", "name", "food", "comment"]) {
      expect(p.confidence[k]).toBeGreaterThan(0);
      expect(p.confidence[k]).toBeLessThanOrEqual(1);
    }
  });

  it("parses a list in order with brute, leaving unknown names as new foods and units", async () => {
    const res = await many({
      parser: "brute",
      ingredients: ["1 1/2 cups flour", "3 zorbles of quux, chopped", "", "2 jiggers quux"],
    });
    expect(res.status).toBe(200);
    const list = (await res.json()) as Parsed[];
    if (hasContract) for (const p of list) assertContract("ParsedIngredient", p);
    expect(list).toHaveLength(4);
    expect(list[0].ingredient).toMatchObject({ quantity: 1.5, unit: { name: "cup" } });
    // A word after the amount that is no known unit is part of the food (decision 0231).
    expect(list[1].ingredient).toMatchObject({
      quantity: 3,
      unit: null,
      food: { id: null, name: "zorbles of quux" },
      note: "chopped",
    });
    expect(list[1].confidence.average).toBeNull();
    expect(list[2].ingredient).toMatchObject({ quantity: 0, unit: null, food: null });
    // A built-in unit the group does not hold is a new unit, named in the singular (decision 0251).
    expect(list[3].ingredient).toMatchObject({
      quantity: 2,
      unit: { id: null, name: "jigger" },
      food: { id: null, name: "quux" },
    });
  });

  it("asks the configured chat model for the openai parser and maps its answer", async () => {
    standIn.replies.push({
      content: JSON.stringify({
        ingredients: [
          { input: "2 cups sugar", confidence: 87, quantity: 2, unit: "cup", food: "sugar", note: "" },
        ],
      }),
    });
    const res = await one({ parser: "openai", ingredient: "2 cups sugar" });
    expect(res.status).toBe(200);
    const p = (await res.json()) as Parsed;
    if (hasContract) assertContract("ParsedIngredient", p);
    expect(p.confidence.average).toBe(87);
    expect(p.ingredient).toMatchObject({
      quantity: 2,
      unit: { name: "cup" },
      food: { name: "sugar" },
      originalText: "2 cups sugar",
    });
    const sent = standIn.requests.at(-1)!;
    expect(sent.body.model).toBe("stand-in-model");
    expect(sent.body.response_format).toEqual({ type: "json_object" });
    expect(JSON.stringify(sent.body.messages)).toContain("2 cups sugar");
  });

  it("answers a failing AI service with its error, not a 500, and keeps the plugin enabled", async () => {
    standIn.replies.push({ content: "this is not json" });
    const res = await one({ parser: "openai", ingredient: "2 cups sugar" });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { detail: { message: string } }).detail.message).toMatch(/not valid JSON/);
    standIn.replies.push({ content: JSON.stringify({ ingredients: [] }) });
    const again = await one({ parser: "openai", ingredient: "2 cups sugar" });
    expect(again.status).toBe(200);
    // A line the model left out keeps its text in the note.
    expect(((await again.json()) as Parsed).ingredient).toMatchObject({ quantity: 0, note: "2 cups sugar" });
  });

  it("refuses bad requests with 422 and strangers with 401", async () => {
    expect((await one({})).status).toBe(422);
    expect((await one({ ingredient: 5 })).status).toBe(422);
    expect((await one({ parser: "crf", ingredient: "1 egg" })).status).toBe(422);
    expect((await many({ ingredients: "1 egg" })).status).toBe(422);
    expect((await many({ ingredients: Array.from({ length: 1001 }, () => "1 egg") })).status).toBe(422);
    expect((await one({ ingredient: "x".repeat(10_001) })).status).toBe(422);
    expect((await one({ ingredient: "1 egg" }, null)).status).toBe(401);
  });

  it("answers hostile lines with a result, never a 500", async () => {
    const hostile = [
      `2 cups ${"flour ".repeat(1666)}`.slice(0, 10_000),
      "1".repeat(10_000),
      "/".repeat(10_000),
      "½".repeat(10_000),
      "2 🍋🍋 lemons 👩‍👩‍👧, zested 🔥",
      "2 كوب دقيق، منخل",
      "3 כוסות קמח",
      "1\u0000cup\u0007 \u001b[31mflour\u202e\u200f",
      "\ud800 lone surrogate \udfff",
      "   ",
      "(((((((((( ))))))))))",
      "1e999 cups",
      "99999999999999999999999 g sugar",
    ];
    for (const parser of ["nlp", "brute"]) {
      const res = await many({ parser, ingredients: hostile });
      expect(res.status, parser).toBe(200);
      const list = (await res.json()) as Parsed[];
      expect(list).toHaveLength(hostile.length);
      for (const p of list) expect(Number.isFinite(p.ingredient.quantity)).toBe(true);
    }
  });
});
