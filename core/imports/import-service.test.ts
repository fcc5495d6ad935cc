import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Larder } from "../larder.js";
import { loadConfig } from "../config.js";
import { consoleLogger } from "../log/logger.js";
import type { Actor } from "../actor.js";
import type { LarderEvent } from "../events/bus.js";
import { loadSharp } from "../lazy/modules.js";

let base: string;
let larder: Larder;
let actor: Actor;
let imageServer: Server;
let imageUrl: string;

async function png(): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp({ create: { width: 40, height: 30, channels: 3, background: "#c33" } })
    .png()
    .toBuffer();
}

async function open(plugins: unknown[] = []): Promise<void> {
  larder = await Larder.open(
    loadConfig({} as NodeJS.ProcessEnv, {
      dataDir: join(base, "data"),
      bcryptRounds: 4,
      fetchAllow: "127.0.0.1",
    }),
    {
      log: consoleLogger("silent"),
      plugins,
    },
  );
  actor = { kind: "user", user: larder.users.all()[0] };
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "larder-import-"));
  const bytes = await png();
  imageServer = createServer((req, res) => {
    if (req.url === "/photo.png") {
      res.writeHead(200, { "Content-Type": "image/png" }).end(bytes);
    } else if (req.url === "/page.html") {
      res.writeHead(200, { "Content-Type": "text/html" }).end("<html></html>");
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => imageServer.listen(0, "127.0.0.1", r));
  imageUrl = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await larder?.close();
  await new Promise((r) => imageServer.close(r));
  await rm(base, { recursive: true, force: true });
});

const recipesDir = () => join(base, "data", "groups", "home", "recipes");

describe("ImportService.createRecipe", () => {
  it("creates the recipe in one write with owner, organizers, image, source URL, timeline event and recipe_created", async () => {
    await open();
    const events: LarderEvent[] = [];
    larder.events.subscribe((e) => void events.push(e));
    const writes: string[] = [];
    larder.recipes.store.on("change", (e) => void writes.push(e.type));
    const slug = await larder.imports.createRecipe(
      actor,
      {
        recipe: {
          name: "  Tomato   Soup ",
          description: "Warm",
          recipeYield: "4 servings",
          totalTime: "45 minutes",
          recipeIngredient: ["2 tomatoes", "1 onion"],
          recipeInstructions: [{ text: "Chop." }, "Simmer."],
          tags: ["Soup", "soup", "Winter"],
          recipeCategory: ["Dinner"],
          orgURL: "https://example.org/soup",
        },
        image: { url: `${imageUrl}/photo.png` },
      },
      { tags: true, source: "test" },
    );
    expect(slug).toBe("tomato-soup");
    expect(writes).toEqual(["created"]);
    const recipe = larder.recipes.get(actor, slug);
    expect(recipe.name).toBe("Tomato Soup");
    expect(recipe.userId).toBe(larder.users.all()[0].id);
    expect(recipe.orgURL).toBe("https://example.org/soup");
    expect(recipe.tags?.map((t) => t.name)).toEqual(["Soup", "Winter"]);
    expect(recipe.recipeCategory?.map((t) => t.name)).toEqual(["Dinner"]);
    // Each line is kept as written (read into amount and food where the group knows the food).
    expect(recipe.recipeIngredient.map((i) => i.originalText ?? i.note)).toEqual(["2 tomatoes", "1 onion"]);
    expect(recipe.recipeInstructions?.map((s) => s.text)).toEqual(["Chop.", "Simmer."]);
    expect(recipe.image).toMatch(/^[a-z][a-z0-9]{7}$/);
    expect((await readdir(join(recipesDir(), slug))).some((n) => n.startsWith("original."))).toBe(true);
    await larder.events.idle();
    expect(events.filter((e) => e.eventType === "recipe_created").map((e) => e.documentData)).toEqual([
      { documentType: "recipe", operation: "create", recipeSlug: slug },
    ]);
    await larder.activity.idle();
    const timeline = larder.timeline.list(actor, {});
    expect(
      timeline.items.filter((e) => e.subject === "Recipe Created" && e.recipeId === recipe.id),
    ).toHaveLength(1);
  });

  it("drops imported tags when tags are not wanted, and gives a taken name the next free one", async () => {
    await open();
    const a = await larder.imports.createRecipe(
      actor,
      { recipe: { name: "Bread", tags: ["Baking"] } },
      { tags: false },
    );
    const b = await larder.imports.createRecipe(actor, { recipe: { name: "Bread" } });
    expect(a).toBe("bread");
    expect(b).toBe("bread-1");
    expect(larder.recipes.get(actor, a).tags).toEqual([]);
  });

  it("keeps the recipe but not an image that is not an image", async () => {
    await open();
    const slug = await larder.imports.createRecipe(actor, {
      recipe: { name: "No Picture" },
      image: { url: `${imageUrl}/page.html` },
    });
    expect(larder.recipes.get(actor, slug).image).toBeFalsy();
    expect(existsSync(join(recipesDir(), slug))).toBe(false);
  });

  it("writes no file and no media folder when the recipe write fails", async () => {
    await open();
    const store = larder.recipes.store;
    const original = store.create.bind(store);
    store.create = () => Promise.reject(new Error("disk full"));
    await expect(
      larder.imports.createRecipe(actor, {
        recipe: { name: "Doomed" },
        image: { bytes: await png(), contentType: "image/png" },
      }),
    ).rejects.toThrow("disk full");
    store.create = original;
    expect(existsSync(join(recipesDir(), "doomed"))).toBe(false);
    expect(existsSync(join(recipesDir(), "doomed.md"))).toBe(false);
  });

  it("refuses a recipe whose fields have the wrong shape, writing nothing", async () => {
    await open();
    await expect(
      larder.imports.createRecipe(actor, {
        recipe: { name: "Bad", recipeIngredient: [{ quantity: "lots" }] },
      }),
    ).rejects.toThrow();
    expect(existsSync(join(recipesDir(), "bad.md"))).toBe(false);
  });

  it("reads ingredient lines as the recipe file does, keeping only foods and units the group knows", async () => {
    await open();
    const group = larder.groups.bySlugOrNull("home")!;
    const unit = group.units.data.units[0];
    const food = group.foods.data.foods[0];
    expect(unit && food).toBeTruthy();
    const slug = await larder.imports.createRecipe(actor, {
      recipe: {
        name: "Parsed",
        recipeIngredient: [`2 ${unit.name} ${food.name}`, "3 zorbles of unobtainium"],
      },
    });
    const ings = larder.recipes.get(actor, slug).recipeIngredient;
    expect(ings[0].quantity).toBe(2);
    expect(ings[0].food?.name).toBe(food.name);
    expect(ings[0].unit?.name).toBe(unit.name);
    expect(ings[0].originalText).toBe(`2 ${unit.name} ${food.name}`);
    expect(ings[1].food).toBeNull();
    expect(ings[1].note).toBe("3 zorbles of unobtainium");
  });
});
