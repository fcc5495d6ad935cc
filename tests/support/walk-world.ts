/**
 * The world tests/api/every-operation.test.ts walks in: a fixture site on loopback (a recipe page, its
 * photo, hooks, an AI) and one of each kind of entity, made over the API the way a client makes them.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { expect } from "vitest";
import { chatCompletion } from "../../core/ai/test-support.js";
import type { TestServer } from "./server.js";
import { makeZip } from "./zip-writer.js";
import type { Made, Part, WalkContext } from "./walk-requests.js";

export interface World {
  t: TestServer;
  token: string;
  made: Made;
  /** Other people's sessions, by the name a request asks for (WalkRequest.token). */
  tokens: Record<string, string>;
  files: WalkContext["files"];
}

/** The world being made or walked: the walk makes a fresh one per server. */
let w: World;

const SPARE_PASSWORD = "Spare-Walker-42";

/** The outside world on loopback: a recipe page and its photo, hooks that take any POST, and an AI. */
export async function startSite(world: World): Promise<Server> {
  w = world;
  const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#c84" } })
    .jpeg()
    .toBuffer();
  w.files.jpeg = photo;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      if (url.pathname === "/recipe.html") {
        res.writeHead(200, { "content-type": "text/html" });
        res.end(recipePage(`http://${req.headers.host}/photo.jpg`));
      } else if (url.pathname === "/photo.jpg") {
        res.writeHead(200, { "content-type": "image/jpeg" });
        res.end(photo);
      } else if (url.pathname === "/v1/chat/completions") {
        res.writeHead(200, { "content-type": "application/json" });
        const recipe = {
          name: "Walk Photo Pie",
          recipeIngredient: ["1 apple"],
          recipeInstructions: ["Bake."],
        };
        res.end(chatCompletion(JSON.stringify(recipe)));
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end("{}");
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  w.made.site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return server;
}

function recipePage(image: string): string {
  const ld = {
    "@context": "https://schema.org",
    "@type": "Recipe",
    name: "Walk Fetched Stew",
    image,
    recipeYield: "4",
    keywords: "stew, winter",
    recipeIngredient: ["2 carrots", "1 onion"],
    recipeInstructions: [{ "@type": "HowToStep", text: "Simmer." }],
  };
  return `<html><head><script type="application/ld+json">${JSON.stringify(ld)}</script></head><body></body></html>`;
}

export async function send(method: string, path: string, json?: unknown, tok: string | null = w.token) {
  const res = await w.t.api(path, { method, token: tok, json });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`setup ${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text
    ? (JSON.parse(text) as Record<string, unknown> & Array<Record<string, unknown>>)
    : ({} as never);
}
const post = (path: string, json?: unknown) => send("POST", path, json);
const idOf = async (path: string, json: unknown) => String((await post(path, json)).id);

async function upload(
  method: string,
  path: string,
  parts: Record<string, Part | Part[]>,
  tok: string | null = w.token,
) {
  return w.t.api(path, { method, token: tok, body: multipart(parts) });
}

export function multipart(parts: Record<string, Part | Part[]>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts))
    for (const p of Array.isArray(value) ? value : [value])
      if (typeof p === "string") form.append(name, p);
      else form.append(name, new Blob([new Uint8Array(p.data)], { type: p.type }), p.name);
  return form;
}

/** One of each kind of entity, w.made the way a client makes it, plus the w.files the uploads send. */
export async function makeEverything(world: World): Promise<void> {
  w = world;
  const H = "/api/households";
  await send("PUT", "/api/groups/preferences", { privateGroup: false });
  await send("PUT", `${H}/preferences`, { privateHousehold: false, recipePublic: true });
  const self = await send("GET", "/api/users/self");
  Object.assign(w.made, {
    userId: self.id,
    username: self.username,
    groupId: self.groupId,
    householdId: self.householdId,
  });
  w.made.groupSlug = String((await send("GET", "/api/groups/self")).slug);
  w.made.householdSlug = String((await send("GET", `${H}/self`)).slug);

  w.made.label = await idOf("/api/groups/labels", { name: "Walk Produce", color: "#22AA44" });
  w.made.food = await idOf("/api/foods", { name: "walk carrot", labelId: w.made.label });
  w.made.food2 = await idOf("/api/foods", { name: "walk carrots" });
  w.made.unit = await idOf("/api/units", { name: "walk cup", abbreviation: "wc" });
  w.made.unit2 = await idOf("/api/units", { name: "walk cups" });
  const category = await post("/api/organizers/categories", { name: "Walk Soups" });
  const tag = await post("/api/organizers/tags", { name: "Walk Warming" });
  const tool = await post("/api/organizers/tools", { name: "Walk Big Pot" });
  Object.assign(w.made, {
    category: category.id,
    categorySlug: category.slug,
    tag: tag.id,
    tagSlug: tag.slug,
    tool: tool.id,
    toolSlug: tool.slug,
  });

  const stockSlug = String(await post("/api/recipes", { name: "Walk Stock" }));
  const stock = await send("GET", `/api/recipes/${stockSlug}`);
  w.made.slug = String(await post("/api/recipes", { name: "Walk Soup" }));
  // A recipe with every part a Mealie client fills in, so that every read of it is checked whole.
  const carrotRef = "1b6e2a3c-4d5e-4f60-8a7b-9c0d1e2f3a4b";
  await send("PATCH", `/api/recipes/${w.made.slug}`, {
    description: "A warming soup.",
    recipeYield: "4 bowls",
    recipeServings: 4,
    recipeYieldQuantity: 4,
    prepTime: "15 minutes",
    cookTime: "40 minutes",
    totalTime: "55 minutes",
    orgURL: "https://example.com/walk-soup",
    recipeCategory: [category],
    tags: [tag],
    tools: [tool],
    recipeIngredient: [
      { title: "Soup", quantity: 0, note: "", display: "", originalText: null },
      {
        quantity: 2,
        unit: { id: w.made.unit, name: "walk cup" },
        food: { id: w.made.food, name: "walk carrot" },
        note: "chopped",
        originalText: "2 walk cups walk carrot, chopped",
        referenceId: carrotRef,
      },
      { quantity: 1, note: "onion" },
      { quantity: 0.5, referencedRecipe: stock, note: "" },
    ],
    recipeInstructions: [
      { title: "Prepare", text: "Chop the carrots.", ingredientReferences: [{ referenceId: carrotRef }] },
      { text: "Simmer everything.", summary: "Simmer" },
    ],
    nutrition: { calories: "210", proteinContent: "4", sodiumContent: "380" },
    notes: [{ title: "Storage", text: "Keeps three days." }],
    extras: { source: "walk" },
    settings: {
      public: true,
      showNutrition: true,
      showAssets: true,
      landscapeView: false,
      disableComments: false,
      locked: false,
    },
  });
  w.made.recipeId = String((await send("GET", `/api/recipes/${w.made.slug}`)).id);
  w.made.doomedSlug = String(await post("/api/recipes", { name: "Walk Doomed Recipe" }));
  w.made.bulkDeleteSlug = String(await post("/api/recipes", { name: "Walk Bulk Doomed" }));

  w.made.cookbook = await idOf(`${H}/cookbooks`, { name: "Walk Book", public: true, queryFilterString: "" });
  w.made.entry = await idOf(`${H}/mealplans`, {
    date: "2031-06-01",
    entryType: "dinner",
    recipeId: w.made.recipeId,
  });
  w.made.rule = await idOf(`${H}/mealplans/rules`, {
    day: "friday",
    entryType: "dinner",
    queryFilterString: "",
  });
  w.made.list = await idOf(`${H}/shopping/lists`, { name: "Walk List" });
  const items = await post(`${H}/shopping/items/create-bulk`, [
    { shoppingListId: w.made.list, note: "walk bread", quantity: 1, labelId: w.made.label },
    { shoppingListId: w.made.list, note: "walk milk", quantity: 1 },
  ]);
  const created = items.createdItems as Array<{ id: string }>;
  Object.assign(w.made, { item: created[0].id, item2: created[1].id });
  await post(`${H}/shopping/lists/${w.made.list}/recipe/${w.made.recipeId}`, { recipeIncrementQuantity: 1 });
  w.made.webhook = await idOf(`${H}/webhooks`, {
    name: "Walk webhook",
    url: `${w.made.site}/hook`,
    webhookType: "mealplan",
    scheduledTime: "08:00",
    enabled: true,
  });
  w.made.appriseUrl = `json://${w.made.site.slice("http://".length)}/notify`;
  w.made.notifier = await idOf(`${H}/events/notifications`, {
    name: "Walk notifier",
    appriseUrl: w.made.appriseUrl,
  });
  w.made.action = await idOf(`${H}/recipe-actions`, {
    actionType: "post",
    title: "Walk action",
    url: `${w.made.site}/hook`,
  });
  w.made.comment = await idOf("/api/comments", { recipeId: w.made.recipeId, text: "Walk comment" });
  w.made.event = await idOf("/api/recipes/timeline/events", {
    recipeId: w.made.recipeId,
    subject: "Walk cooked",
    eventType: "info",
    timestamp: "2031-06-01T18:00:00Z",
  });
  w.made.share = await idOf("/api/shared/recipes", { recipeId: w.made.recipeId });
  await post(`/api/users/${w.made.userId}/ratings/${w.made.slug}`, { rating: 5, isFavorite: true });
  const provider = { baseUrl: `${w.made.site}/v1`, apiKey: "sk-walk", model: "walk-model", timeout: 10 };
  w.made.provider = await idOf("/api/groups/ai-providers/providers", { name: "Walk model", ...provider });
  w.made.provider2 = await idOf("/api/groups/ai-providers/providers", {
    name: "Walk other model",
    ...provider,
  });
  await send("PUT", "/api/groups/ai-providers/settings", {
    defaultProviderId: w.made.provider,
    audioProviderId: null,
    imageProviderId: w.made.provider,
  });

  const image = { image: { data: w.files.jpeg, name: "soup.jpg", type: "image/jpeg" }, extension: "jpg" };
  expect((await upload("PUT", `/api/recipes/${w.made.slug}/image`, image)).status).toBe(200);
  expect((await upload("PUT", `/api/recipes/timeline/events/${w.made.event}/image`, image)).status).toBe(200);
  const profile = { profile: { data: w.files.jpeg, name: "me.jpg", type: "image/jpeg" } };
  expect((await upload("POST", `/api/users/${w.made.userId}/image`, profile)).status).toBe(200);
  const asset = await upload("POST", `/api/recipes/${w.made.slug}/assets`, {
    name: "Walk notes",
    icon: "mdi-file",
    extension: "txt",
    file: { data: Buffer.from("notes\n"), name: "notes.txt", type: "text/plain" },
  });
  w.made.assetFile = String(((await asset.json()) as { fileName: string }).fileName);

  w.made.inviteToken = String((await post(`${H}/invitations`, { uses: 5 })).token);
  const person = (username: string) => ({
    username,
    fullName: `Walk ${username}`,
    email: `${username}@example.com`,
    password: SPARE_PASSWORD,
    group: "Home",
    household: "Family",
  });
  w.made.spareUser = await idOf("/api/admin/users", person("spare"));
  w.made.doomedUser = await idOf("/api/admin/users", person("doomed"));
  w.tokens.spare = await w.t.login("spare", SPARE_PASSWORD);
  w.tokens.logout = await w.t.login();
  // The doomed user's: the spare user's password changes first, which ends its reset links.
  w.made.resetToken = String(
    (await post("/api/admin/users/password-reset-token", { email: "doomed@example.com" })).token,
  );
  w.made.apiToken = await idOf("/api/users/api-tokens", { name: "Walk token" });
  w.made.doomedGroup = await idOf("/api/admin/groups", { name: "Walk Doomed Group" });
  w.made.doomedHousehold = await idOf("/api/admin/households", {
    name: "Walk Doomed House",
    groupId: w.made.groupId,
  });

  await post("/api/admin/backups");
  const backups = (await send("GET", "/api/admin/backups")).imports as Array<{ name: string }>;
  w.made.backup = backups[0].name;
  const fileToken = String((await send("GET", `/api/admin/backups/${w.made.backup}`)).fileToken);
  w.files.backup = Buffer.from(
    await (await w.t.api(`/api/utils/download?token=${fileToken}`, { token: w.token })).arrayBuffer(),
  );
  await post("/api/recipes/bulk-actions/export", { recipes: [w.made.slug], exportType: "json" });
  w.made.export = String((await send("GET", "/api/recipes/bulk-actions/export"))[0].id);
  w.files.zip = Buffer.from(await (await w.t.api(`/api/recipes/shared/${w.made.share}/zip`)).arrayBuffer());
  w.files.migration = makeZip([
    {
      name: "Walk Migrated/recipe.json",
      data: JSON.stringify({
        name: "Walk Migrated",
        recipeIngredient: ["1 egg"],
        recipeInstructions: ["Boil."],
      }),
    },
  ]);
  const migrated = await upload("POST", "/api/groups/migrations", {
    migration_type: "nextcloud",
    archive: { data: w.files.migration, name: "nextcloud.zip", type: "application/zip" },
  });
  w.made.report = String(((await migrated.json()) as { id: string }).id);
}
