/**
 * node-mealie (democratize-technology/node-mealie, the Node client that its Node-RED nodes use),
 * replayed against Larder: every request carries `Content-Type: application/json`, GETs and DELETEs
 * included, and a call without a body (zip token, duplicate) is a POST with that header and no body;
 * lists go as PUT/PATCH of arrays (decision 0290).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { startTestServer, type TestServer } from "../../support/server.js";
import { newRecipe } from "../../support/members.js";
import { send } from "./send.js";

let t: TestServer;
let token: string;
type Json = Record<string, unknown>;

/** MealieClient.request: JSON content type always; `JSON.stringify(undefined)` sends no body. */
async function node(method: string, path: string, body?: unknown) {
  return send(t.url + path, {
    method,
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
const query = (params: Record<string, unknown>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const x of v) q.append(k, String(x));
    else q.append(k, String(v));
  }
  return q.toString();
};

beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});
afterAll(async () => t?.close());

describe("node-mealie against Larder", () => {
  it("GET and DELETE with a JSON content type and no body", async () => {
    const r = await newRecipe(t, token, "Node Loaf");
    expect((await node("GET", "/api/app/about")).ok).toBe(true);
    expect((await node("GET", `/api/recipes/${r.slug}`)).ok).toBe(true);
    expect((await node("GET", `/api/recipes?${query({ page: 1, perPage: 10, search: "loaf" })}`)).ok).toBe(
      true,
    );
    expect((await node("DELETE", `/api/recipes/${r.slug}`)).ok).toBe(true);
  });

  it("bodiless POSTs: the zip token and duplicate", async () => {
    const r = await newRecipe(t, token, "Node Stew");
    const zip = await node("POST", `/api/recipes/${r.slug}/exports`);
    expect(zip.status).toBe(200);
    const dl = await fetch(
      `${t.url}/api/recipes/${r.slug}/exports/zip?token=${encodeURIComponent((zip.body as Json).token as string)}`,
      { headers: { "Content-Type": "application/json" } },
    );
    expect(dl.status).toBe(200);
    const dup = await node("POST", `/api/recipes/${r.slug}/duplicate`);
    expect(dup.status).toBe(201);
    expect((dup.body as Json).slug).not.toBe(r.slug);
    const me = ((await node("GET", "/api/users/self")).body as Json).id as string;
    expect((await node("POST", `/api/users/${me}/favorites/${r.slug}`)).ok).toBe(true);
  });

  it("updates and patches many recipes by array, and exports one as a template", async () => {
    const a = await newRecipe(t, token, "Node Many A");
    const b = await newRecipe(t, token, "Node Many B");
    const ra = (await node("GET", `/api/recipes/${a.slug}`)).body as Json;
    const rb = (await node("GET", `/api/recipes/${b.slug}`)).body as Json;
    const put = await node("PUT", "/api/recipes", [
      { ...ra, description: "put A" },
      { ...rb, description: "put B" },
    ]);
    expect(put.status).toBe(200);
    const patch = await node("PATCH", "/api/recipes", [
      { id: ra.id, slug: ra.slug, description: "patched A" },
      { id: rb.id, slug: rb.slug, description: "patched B" },
    ]);
    expect(patch.status).toBe(200);
    expect(((await node("GET", `/api/recipes/${a.slug}`)).body as Json).description).toBe("patched A");
    expect(((await node("GET", `/api/recipes/${b.slug}`)).body as Json).description).toBe("patched B");
    const formats = await node("GET", "/api/recipes/exports");
    const templates = (formats.body as { jinja2: string[] }).jinja2;
    expect(templates.length).toBeGreaterThan(0);
    const res = await fetch(
      `${t.url}/api/recipes/${a.slug}/exports?template_name=${encodeURIComponent(templates[0])}`,
      { headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` } },
    );
    expect(res.status).toBe(200);
  });

  it("suggestions and timeline events through its query builder", async () => {
    const r = await newRecipe(t, token, "Node Timeline");
    const sug = await node("GET", `/api/recipes/suggestions?${query({ limit: 5, maxMissingFoods: 2 })}`);
    expect(sug.status).toBe(200);
    expect(Array.isArray((sug.body as Json).items)).toBe(true);
    const ev = await node("POST", "/api/recipes/timeline/events", {
      recipeId: r.id,
      subject: "Cooked",
      eventType: "info",
      timestamp: new Date().toISOString(),
    });
    expect(ev.status).toBe(201);
    const id = (ev.body as Json).id as string;
    const list = await node(
      "GET",
      `/api/recipes/timeline/events?${query({ page: 1, perPage: 50, queryFilter: `recipeId = "${r.id}"` })}`,
    );
    expect((list.body as { items: Json[] }).items.map((e) => e.id)).toContain(id);
    const upd = await node("PUT", `/api/recipes/timeline/events/${id}`, { subject: "Cooked twice" });
    expect((upd.body as Json).subject).toBe("Cooked twice");
    expect((await node("DELETE", `/api/recipes/timeline/events/${id}`)).ok).toBe(true);
  });

  it("uploads a recipe image, an asset and a timeline image as FormData, with no JSON content type", async () => {
    const r = await newRecipe(t, token, "Node Upload");
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#0a0" } })
      .png()
      .toBuffer();
    // MealieClient.request leaves Content-Type to fetch when the body is FormData.
    const upload = async (method: string, path: string, form: FormData) => {
      const res = await fetch(t.url + path, {
        method,
        headers: { Authorization: `Bearer ${token}` },
        body: form,
      });
      return { status: res.status, body: (await res.json()) as Json };
    };
    let form = new FormData();
    form.append("image", new Blob([new Uint8Array(png)], { type: "image/png" }), "loaf.png");
    form.append("extension", "png");
    const image = await upload("PUT", `/api/recipes/${r.slug}/image`, form);
    expect(image.status).toBe(200);
    expect(typeof image.body.image).toBe("string");
    expect((await fetch(`${t.url}/api/media/recipes/${r.id}/images/original.webp`)).status).toBe(200);

    form = new FormData();
    form.append("file", new Blob([Buffer.from("rise twice")], { type: "text/plain" }), "notes.txt");
    form.append("name", "Notes");
    form.append("icon", "mdi-file");
    form.append("extension", "txt");
    const asset = await upload("POST", `/api/recipes/${r.slug}/assets`, form);
    expect(asset.status).toBe(200);
    expect(asset.body).toMatchObject({ name: "Notes", icon: "mdi-file" });

    const ev = await node("POST", "/api/recipes/timeline/events", {
      recipeId: r.id,
      subject: "Baked",
      eventType: "comment",
      timestamp: new Date().toISOString(),
    });
    form = new FormData();
    form.append("image", new Blob([new Uint8Array(png)], { type: "image/png" }), "baked.png");
    form.append("extension", "png");
    const evImage = await upload(
      "PUT",
      `/api/recipes/timeline/events/${(ev.body as Json).id as string}/image`,
      form,
    );
    expect(evImage.status).toBe(200);
  });
});
