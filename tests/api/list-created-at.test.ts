/**
 * `orderBy=createdAt` and `queryFilter=createdAt …` on the lists whose items do not show their
 * creation time (cookbooks, notifiers, recipe actions, webhooks, meal plan entries and rules, labels,
 * explore's cookbooks and households): every Mealie table has the column, so its clients may name it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";

let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
  await send("PUT", "/api/groups/preferences", { privateGroup: false });
  await send("PUT", "/api/households/preferences", { privateHousehold: false });
});
afterAll(async () => t?.close());

async function send(method: string, path: string, json?: unknown): Promise<Record<string, unknown>> {
  const res = await t.api(path, { method, token, json });
  expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(300);
  return (await res.json()) as Record<string, unknown>;
}

/** The next millisecond's ISO time, once the clock has reached it: what is made after it is newer. */
async function cut(): Promise<string> {
  const start = Date.now();
  const deadline = start + 1000;
  while (Date.now() <= start + 1 && Date.now() < deadline) await new Promise((r) => setImmediate(r));
  return new Date(Date.now() - 1).toISOString();
}

const H = "/api/households";
type Item = { name?: string; title?: string; day?: string };
const LISTS: Array<{ path: string; make: (name: string) => Promise<unknown>; label: (x: Item) => string }> = [
  {
    path: `${H}/cookbooks`,
    make: (name) => send("POST", `${H}/cookbooks`, { name, public: true }),
    label: (x) => x.name ?? "",
  },
  {
    path: `${H}/events/notifications`,
    make: (name) => send("POST", `${H}/events/notifications`, { name, appriseUrl: "json://example.com/x" }),
    label: (x) => x.name ?? "",
  },
  {
    path: `${H}/recipe-actions`,
    make: (title) =>
      send("POST", `${H}/recipe-actions`, { actionType: "link", title, url: "https://example.com" }),
    label: (x) => x.title ?? "",
  },
  {
    path: `${H}/webhooks`,
    make: (name) =>
      send("POST", `${H}/webhooks`, { name, url: "https://example.com", scheduledTime: "08:00" }),
    label: (x) => x.name ?? "",
  },
  {
    path: `${H}/mealplans`,
    make: (title) => send("POST", `${H}/mealplans`, { date: "2031-06-01", title }),
    label: (x) => x.title ?? "",
  },
  {
    path: `${H}/mealplans/rules`,
    make: (name) =>
      send("POST", `${H}/mealplans/rules`, {
        day: name === "older" ? "monday" : "tuesday",
        entryType: "dinner",
        queryFilterString: "",
      }),
    label: (x) => (x.day === "monday" ? "older" : "newer"),
  },
  {
    path: "/api/groups/labels",
    make: (name) => send("POST", "/api/groups/labels", { name }),
    label: (x) => x.name ?? "",
  },
  {
    path: "/api/explore/groups/home/cookbooks",
    make: async () => undefined, // the household cookbooks above, public
    label: (x) => x.name ?? "",
  },
];

describe("lists order and filter by createdAt, though their items do not show it", () => {
  let between = "";
  beforeAll(async () => {
    for (const l of LISTS) await l.make("older");
    between = await cut();
    for (const l of LISTS) await l.make("newer");
  });

  it.each(LISTS.map((l) => [l.path, l] as const))("%s", async (_, l) => {
    const names = async (query: string) => {
      const page = await send("GET", `${l.path}?perPage=-1&${query}`);
      return (page.items as Item[]).map(l.label).filter((n) => n === "older" || n === "newer");
    };
    expect(await names("orderBy=createdAt&orderDirection=desc")).toEqual(["newer", "older"]);
    expect(await names("orderBy=created_at&orderDirection=asc")).toEqual(["older", "newer"]);
    expect(await names(`queryFilter=${encodeURIComponent(`createdAt > "${between}"`)}`)).toEqual(["newer"]);
    expect(
      await names(`orderBy=updateAt&queryFilter=${encodeURIComponent(`updatedAt <= "${between}"`)}`),
    ).toEqual(["older"]);
  });

  it("/api/explore/groups/home/households", async () => {
    const made = await send("POST", "/api/admin/households", { name: "Newer House" });
    await send("PUT", `/api/admin/households/${made.id}`, {
      ...made,
      preferences: { privateHousehold: false },
    });
    const page = await send(
      "GET",
      `/api/explore/groups/home/households?orderBy=createdAt&orderDirection=desc&queryFilter=${encodeURIComponent(
        `createdAt > "${between}"`,
      )}`,
    );
    expect((page.items as Array<{ name: string }>).map((h) => h.name)).toEqual(["Newer House"]);
  });
});
