import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { otherGroup } from "../support/members.js";

let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});
afterAll(async () => t?.close());

type Label = { id: string; name: string; color: string; groupId: string };
const seedFile = async (locale: string, kind: string) =>
  JSON.parse(await readFile(join(process.cwd(), "templates", "seed", locale, `${kind}.json`), "utf8")) as {
    name: string;
    pluralName?: string | null;
    abbreviation?: string;
  }[];

describe("labels", () => {
  it("creates (200, as Mealie), reads, renames, lists with search, deletes; then 404", async () => {
    const res = await t.api("/api/groups/labels", { method: "POST", token, json: { name: "Cold Room" } });
    expect(res.status).toBe(200);
    const l = (await res.json()) as Label;
    if (hasContract) assertContract("MultiPurposeLabelOut", l);
    expect(l.color).toBe("#959595");
    const put = (await (
      await t.api(`/api/groups/labels/${l.id}`, {
        method: "PUT",
        token,
        json: { ...l, name: "Walk-in Cold Room", color: "#00AAFF" },
      })
    ).json()) as Label;
    expect(put).toMatchObject({ name: "Walk-in Cold Room", color: "#00AAFF" });
    const page = (await (await t.api("/api/groups/labels?search=walk-in", { token })).json()) as {
      items: Label[];
    };
    if (hasContract) assertContract("MultiPurposeLabelPagination", page);
    expect(page.items[0].id).toBe(l.id);
    expect(
      (await t.api("/api/groups/labels", { method: "POST", token, json: { name: "walk-in cold room" } }))
        .status,
    ).toBe(400);
    expect((await t.api(`/api/groups/labels/${l.id}`, { method: "DELETE", token })).status).toBe(200);
    expect((await t.api(`/api/groups/labels/${l.id}`, { token })).status).toBe(404);
  });

  it("takes a deleted label off the foods that carried it", async () => {
    const l = (await (
      await t.api("/api/groups/labels", { method: "POST", token, json: { name: "Odd Shelf" } })
    ).json()) as Label;
    const food = (await (
      await t.api("/api/foods", { method: "POST", token, json: { name: "odd fruit", labelId: l.id } })
    ).json()) as { id: string; labelId: string };
    expect(food.labelId).toBe(l.id);
    await t.api(`/api/groups/labels/${l.id}`, { method: "DELETE", token });
    const after = (await (await t.api(`/api/foods/${food.id}`, { token })).json()) as {
      labelId: string | null;
      label: unknown;
    };
    expect(after.labelId).toBeNull();
    expect(after.label).toBeNull();
  });

  it("keeps another group's labels out of reach (404) and out of lists", async () => {
    const l = (await (
      await t.api("/api/groups/labels", { method: "POST", token, json: { name: "Home Shelf" } })
    ).json()) as Label;
    const other = await otherGroup(t, "Label Strangers");
    expect((await t.api(`/api/groups/labels/${l.id}`, { token: other.token })).status).toBe(404);
    expect(
      (
        await t.api(`/api/groups/labels/${l.id}`, {
          method: "PUT",
          token: other.token,
          json: { ...l, name: "Mine" },
        })
      ).status,
    ).toBe(404);
    expect((await t.api(`/api/groups/labels/${l.id}`, { method: "DELETE", token: other.token })).status).toBe(
      404,
    );
    const theirs = (await (await t.api("/api/groups/labels?perPage=-1", { token: other.token })).json()) as {
      items: Label[];
    };
    expect(theirs.items).toEqual([]);
  });
});

describe("seeders", () => {
  it("refuses a locale Mealie does not know (422)", async () => {
    for (const kind of ["foods", "units", "labels"]) {
      expect(
        (await t.api(`/api/groups/seeders/${kind}`, { method: "POST", token, json: { locale: "invalid" } }))
          .status,
      ).toBe(422);
    }
  });

  it("seeds en-US into an empty group, then skips what is already there", async () => {
    const g = await otherGroup(t, "Seeded English");
    for (const kind of ["labels", "units", "foods"] as const) {
      const res = await t.api(`/api/groups/seeders/${kind}`, {
        method: "POST",
        token: g.token,
        json: { locale: "en-US" },
      });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toEqual({ message: "Seeding Successful", error: false });
      if (hasContract) assertContract("SuccessResponse", body);
    }
    const [foods, units, labels] = await Promise.all(
      ["foods", "units", "labels"].map((k) => seedFile("en-US", k)),
    );
    expect(g.group.foods.data.foods).toHaveLength(foods.length);
    expect(g.group.units.data.units).toHaveLength(units.length);
    expect(g.group.labels.data.labels).toHaveLength(labels.length);
    await t.api("/api/groups/seeders/foods", { method: "POST", token: g.token, json: { locale: "en-US" } });
    expect(g.group.foods.data.foods).toHaveLength(foods.length);
    // Seeded foods carry their store-section label.
    expect(g.group.foods.data.foods.find((f) => f.name === "onion")?.labelId).toBeTruthy();
  });

  for (const locale of ["de-DE", "fr-FR", "es-ES", "nl-NL"]) {
    it(`seeds Larder's own ${locale} lists: 200+ foods with plurals, metric units, store-section labels`, async () => {
      const [foods, units, labels] = await Promise.all(
        ["foods", "units", "labels"].map((k) => seedFile(locale, k)),
      );
      expect(foods.length).toBeGreaterThanOrEqual(200);
      expect(foods.filter((f) => f.pluralName).length).toBeGreaterThanOrEqual(100);
      expect(new Set(foods.map((f) => f.name.toLowerCase())).size).toBe(foods.length);
      for (const abbr of ["g", "kg", "ml", "l"]) expect(units.map((u) => u.abbreviation)).toContain(abbr);
      expect(labels.length).toBeGreaterThanOrEqual(10);
      const g = await otherGroup(t, `Seeded ${locale}`);
      for (const kind of ["labels", "units", "foods"]) {
        expect(
          (await t.api(`/api/groups/seeders/${kind}`, { method: "POST", token: g.token, json: { locale } }))
            .status,
        ).toBe(200);
      }
      expect(g.group.foods.data.foods).toHaveLength(foods.length);
      expect(g.group.units.data.units).toHaveLength(units.length);
      expect(g.group.labels.data.labels).toHaveLength(labels.length);
      // Every food names a label of the same list.
      expect(g.group.foods.data.foods.every((f) => f.labelId !== null)).toBe(true);
    });
  }

  it("falls back to the language's list (fr-CA → fr-FR), else to en-US (ja-JP)", async () => {
    const fr = await otherGroup(t, "Seeded Quebec");
    await t.api("/api/groups/seeders/labels", { method: "POST", token: fr.token, json: { locale: "fr-CA" } });
    expect(fr.group.labels.data.labels.map((l) => l.name).sort()).toEqual(
      (await seedFile("fr-FR", "labels")).map((l) => l.name).sort(),
    );
    const ja = await otherGroup(t, "Seeded Tokyo");
    await t.api("/api/groups/seeders/labels", { method: "POST", token: ja.token, json: { locale: "ja-JP" } });
    expect(ja.group.labels.data.labels.map((l) => l.name).sort()).toEqual(
      (await seedFile("en-US", "labels")).map((l) => l.name).sort(),
    );
  });
});
