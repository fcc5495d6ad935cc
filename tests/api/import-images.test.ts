/**
 * Recipes from photos and the AI debug route, against a stand-in for an OpenAI-compatible API on
 * loopback that checks what it was sent, and that can answer garbage, hang, or rate-limit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";

type Mode = "recipe" | "not-json" | "not-a-recipe" | "hang" | "429";
let mode: Mode = "recipe";
let received: Array<{ headers: IncomingMessage["headers"]; body: Record<string, unknown> }> = [];
const hanging: ServerResponse[] = [];
let ai: Server;
let t: TestServer;
let off: TestServer;
let token: string;
let photo: Buffer;
let photo2: Buffer;

const RECIPE = {
  name: "Nan's Flapjacks",
  description: "From the recipe card.",
  recipeYield: "12 pieces",
  prepTime: "10 minutes",
  cookTime: "PT25M",
  recipeIngredient: ["250 g oats", "125 g butter", "125 g golden syrup"],
  recipeInstructions: ["Melt the butter with the syrup.", { text: "Stir in the oats and bake." }],
  tags: ["baking"],
};

function answer(res: ServerResponse, content: string): void {
  res.writeHead(200, { "Content-Type": "application/json" }).end(
    JSON.stringify({
      id: "x",
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content } }],
    }),
  );
}

beforeAll(async () => {
  photo = await sharp({ create: { width: 80, height: 60, channels: 3, background: "#f1c40f" } })
    .jpeg()
    .toBuffer();
  photo2 = await sharp({ create: { width: 60, height: 80, channels: 3, background: "#2980b9" } })
    .png()
    .toBuffer();
  ai = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>,
      });
      if (req.url !== "/v1/chat/completions") return void res.writeHead(404).end();
      if (mode === "hang") return void hanging.push(res);
      if (mode === "429")
        return void res
          .writeHead(429, { "Content-Type": "application/json" })
          .end('{"error":{"message":"slow down"}}');
      if (mode === "not-json")
        return void res.writeHead(200, { "Content-Type": "text/html" }).end("<html>gateway error</html>");
      if (mode === "not-a-recipe") return answer(res, "I am sorry, I cannot help with that.");
      answer(res, `Here you are:\n\`\`\`json\n${JSON.stringify(RECIPE)}\n\`\`\``);
    });
  });
  await new Promise<void>((r) => ai.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(ai.address() as AddressInfo).port}/v1`;
  // The AI endpoint is the administrator's own setting: reachable on loopback without LARDER_FETCH_ALLOW.
  t = await startTestServer({
    openai: {
      API_KEY: "sk-test",
      BASE_URL: base,
      MODEL: "stand-in-vision",
      REQUEST_TIMEOUT: "1",
      CUSTOM_HEADERS: '{"X-Extra":"yes"}',
    },
  });
  off = await startTestServer();
  token = await t.login();
});

afterAll(async () => {
  for (const r of hanging) r.destroy();
  ai?.closeAllConnections();
  await new Promise((r) => ai?.close(r));
  await t?.close();
  await off?.close();
});

function photos(...files: Array<[Buffer, string]>): FormData {
  const f = new FormData();
  for (const [data, name] of files) f.append("images", new Blob([new Uint8Array(data)]), name);
  return f;
}
const listing = async () =>
  (await readdir(join(t.dataDir, "groups", "home", "recipes")).catch(() => [] as string[])).sort();
const tmpFiles = async () => readdir(join(t.dataDir, ".larder", "tmp")).catch(() => [] as string[]);

describe("POST /api/recipes/create/image", () => {
  it("sends every photo to the model and creates the recipe it reads, the first photo as its image", async () => {
    mode = "recipe";
    received = [];
    const res = await t.api("/api/recipes/create/image?translateLanguage=German", {
      method: "POST",
      token,
      body: photos([photo, "card.jpg"], [photo2, "back.png"]),
    });
    expect(res.status).toBe(201);
    const slug = (await res.json()) as string;
    expect(slug).toBe("nan-s-flapjacks");
    expect(received).toHaveLength(1);
    const sent = received[0];
    expect(sent.headers.authorization).toBe("Bearer sk-test");
    expect(sent.headers["x-extra"]).toBe("yes");
    expect(sent.body.model).toBe("stand-in-vision");
    const messages = sent.body.messages as Array<{ role: string; content: unknown }>;
    expect(JSON.stringify(messages[0].content)).toContain("German");
    const parts = messages[1].content as Array<{ type: string; image_url?: { url: string } }>;
    const images = parts.filter((p) => p.type === "image_url").map((p) => p.image_url!.url);
    expect(images).toEqual([
      `data:image/jpeg;base64,${photo.toString("base64")}`,
      `data:image/png;base64,${photo2.toString("base64")}`,
    ]);

    const recipe = (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as Record<string, unknown>;
    if (hasContract) assertContract("Recipe-Output", recipe);
    expect(recipe.name).toBe("Nan's Flapjacks");
    // The group's parser reads each line it can into quantity, unit and food; each displays as written.
    const shown = (recipe.recipeIngredient as { display: string }[]).map((i) => i.display);
    expect(shown).toHaveLength(RECIPE.recipeIngredient.length);
    // The parser may match a food by a longer name ("rolled oats"); every line keeps its amount and food word.
    RECIPE.recipeIngredient.forEach((line, i) => {
      const words = line.split(" ");
      expect(shown[i]).toContain(words[0]);
      expect(shown[i]).toContain(words[words.length - 1]);
    });
    expect((recipe.recipeInstructions as { text: string }[]).map((s) => s.text)).toEqual([
      "Melt the butter with the syrup.",
      "Stir in the oats and bake.",
    ]);
    expect(recipe.totalTime).toBe("35 minutes");
    expect(recipe.image).toBeTruthy();
    expect(await tmpFiles()).toEqual([]);
  });

  for (const [what, m, status] of [
    ["answers something that is not JSON", "not-json", 502],
    ["answers text that is not a recipe", "not-a-recipe", 502],
    ["never answers", "hang", 504],
    ["keeps rate-limiting (429)", "429", 503],
  ] as const) {
    it(`gives a clear error and writes nothing when the AI service ${what}`, async () => {
      mode = m;
      const before = await listing();
      const res = await t.api("/api/recipes/create/image", {
        method: "POST",
        token,
        body: photos([photo, "card.jpg"]),
      });
      expect(res.status).toBe(status);
      const body = (await res.json()) as { detail: { message: string } };
      expect(body.detail.message).toMatch(/AI service/);
      expect(await listing()).toEqual(before);
      expect(await tmpFiles()).toEqual([]);
    });
  }

  it("refuses a file that is not an image before asking the model", async () => {
    mode = "recipe";
    received = [];
    const res = await t.api("/api/recipes/create/image", {
      method: "POST",
      token,
      body: photos([Buffer.from("not an image at all"), "x.jpg"]),
    });
    expect(res.status).toBe(400);
    expect(received).toHaveLength(0);
  });

  it("answers 400 when OpenAI is not configured", async () => {
    const offToken = await off.login();
    const res = await off.api("/api/recipes/create/image", {
      method: "POST",
      token: offToken,
      body: photos([photo, "card.jpg"]),
    });
    expect(res.status).toBe(400);
  });
});

describe("app info and POST /api/admin/debug/openai", () => {
  it("says when image services are on", async () => {
    expect(
      ((await (await t.api("/api/app/about")).json()) as Record<string, unknown>).enableOpenaiImageServices,
    ).toBe(true);
    expect(
      ((await (await off.api("/api/app/about")).json()) as Record<string, unknown>).enableOpenaiImageServices,
    ).toBe(false);
  });

  it("answers the contract's DebugResponse, with and without an image, success or not", async () => {
    mode = "not-a-recipe";
    const plain = await t.api("/api/admin/debug/openai", { method: "POST", token });
    expect(plain.status).toBe(200);
    const ok = (await plain.json()) as { success: boolean; response: string };
    if (hasContract) assertContract("DebugResponse", ok);
    expect(ok).toEqual({ success: true, response: "I am sorry, I cannot help with that." });

    received = [];
    const f = new FormData();
    f.set("image", new Blob([new Uint8Array(photo)]), "x.jpg");
    // A provider id must name one of the group's providers (tests/api/ai-providers.test.ts); the
    // legacy route uses OPENAI_* when the group has none.
    const withImage = (await (
      await t.api("/api/admin/debug/openai", { method: "POST", token, body: f })
    ).json()) as { success: boolean };
    expect(withImage.success).toBe(true);
    expect(JSON.stringify(received[0].body)).toContain(`data:image/jpeg;base64,${photo.toString("base64")}`);

    mode = "429";
    const limited = (await (await t.api("/api/admin/debug/openai", { method: "POST", token })).json()) as {
      success: boolean;
      response: string;
    };
    if (hasContract) assertContract("DebugResponse", limited);
    expect(limited.success).toBe(false);
    expect(limited.response).toMatch(/429/);

    const offToken = await off.login();
    const notSet = (await (
      await off.api("/api/admin/debug/openai", { method: "POST", token: offToken })
    ).json()) as { success: boolean };
    expect(notSet.success).toBe(false);
  });
});
