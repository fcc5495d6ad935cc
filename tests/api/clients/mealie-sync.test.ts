/**
 * MealieSync (Rouzax/MealieSync, PowerShell scripts that keep foods, units, labels and organizers in
 * step with JSON files), replayed against Larder as Invoke-RestMethod sends it: `Content-Type:
 * application/json; charset=utf-8` on every call, bodies as UTF-8 bytes, pages of 100 read until one
 * comes back short, and updates PUT with the id plus only the fields it sets (decision 0290).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../support/server.js";
import { send } from "./send.js";

let t: TestServer;
let token: string;
type Json = Record<string, unknown>;

/** Invoke-MealieRequest: the headers of Initialize-MealieApi, a body only for POST and PUT. */
async function ps(method: string, endpoint: string, body?: unknown) {
  return send(t.url + endpoint, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json; charset=utf-8",
      Accept: "application/json",
    },
    body: body && ["POST", "PUT"].includes(method) ? Buffer.from(JSON.stringify(body), "utf8") : undefined,
  });
}
/** Get-Mealie* -All: pages of 100 until one has fewer items. */
async function all(endpoint: string): Promise<Json[]> {
  const items: Json[] = [];
  let page = 1;
  let got: Json[];
  do {
    const r = await ps("GET", `${endpoint}?page=${page}&perPage=100`);
    expect(r.status).toBe(200);
    got = (r.body as { items: Json[] }).items;
    items.push(...got);
    page++;
  } while (got.length === 100);
  return items;
}

beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});
afterAll(async () => t?.close());

describe("MealieSync against Larder", () => {
  it("imports labels and foods with Dutch names, aliases and a label, then updates one by id", async () => {
    const label = await ps("POST", "/api/groups/labels", { name: "Groente", color: "#4CAF50" });
    expect(label.status).toBe(200); // Mealie's labels answer 200, not 201
    const labelId = (label.body as Json).id as string;
    const made = await ps("POST", "/api/foods", {
      name: "aardappel",
      pluralName: "aardappelen",
      description: "Knol, geschild of ongeschild",
      labelId,
      aliases: [{ name: "pieper" }, { name: "piepers" }],
    });
    expect(made.status).toBe(201);
    const food = made.body as Json;
    expect(food).toMatchObject({ name: "aardappel", pluralName: "aardappelen", labelId });
    expect((food.aliases as Json[]).map((a) => a.name)).toEqual(["pieper", "piepers"]);
    await ps("POST", "/api/foods", { name: "crème fraîche", description: "Zure room, 30% vet" });

    const foods = await all("/api/foods");
    expect(foods.map((f) => f.name)).toEqual(expect.arrayContaining(["aardappel", "crème fraîche"]));
    const more = foods.length;
    expect(more).toBeGreaterThan(100);

    const updated = await ps("PUT", `/api/foods/${food.id as string}`, {
      id: food.id,
      name: "aardappel",
      pluralName: "aardappelen",
      description: "Knol",
      labelId,
      aliases: [{ name: "pieper" }],
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ description: "Knol", labelId });
    expect(((updated.body as Json).aliases as Json[]).map((a) => a.name)).toEqual(["pieper"]);
  });

  it("imports and updates units with abbreviation, fraction and aliases", async () => {
    const made = await ps("POST", "/api/units", {
      name: "eetlepel",
      useAbbreviation: false,
      fraction: true,
      pluralName: "eetlepels",
      abbreviation: "el",
      aliases: [{ name: "tbsp" }, { name: "tablespoon" }],
    });
    expect(made.status).toBe(201);
    const unit = made.body as Json;
    expect(unit).toMatchObject({
      name: "eetlepel",
      abbreviation: "el",
      fraction: true,
      useAbbreviation: false,
    });
    const updated = await ps("PUT", `/api/units/${unit.id as string}`, {
      id: unit.id,
      name: "eetlepel",
      abbreviation: "el",
      useAbbreviation: true,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ useAbbreviation: true, abbreviation: "el" });
    expect((await all("/api/units")).map((u) => u.name)).toContain("eetlepel");
  });

  it("creates, renames and deletes categories, tags and tools, the DELETE with a JSON content type and no body", async () => {
    for (const kind of ["categories", "tags", "tools"]) {
      const made = await ps("POST", `/api/organizers/${kind}`, { name: "Grillen" });
      expect(made.status).toBe(201);
      const id = (made.body as Json).id as string;
      const renamed = await ps("PUT", `/api/organizers/${kind}/${id}`, { id, name: "Barbecue" });
      expect(renamed.status).toBe(200);
      expect((renamed.body as Json).name).toBe("Barbecue");
      expect((await all(`/api/organizers/${kind}`)).map((o) => o.name)).toContain("Barbecue");
      expect((await ps("DELETE", `/api/organizers/${kind}/${id}`)).status).toBe(200);
      expect((await all(`/api/organizers/${kind}`)).map((o) => o.id)).not.toContain(id);
    }
  });
});
