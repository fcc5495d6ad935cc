/**
 * `kill -9` in the middle of writes: the served process (the bundle users run) is killed with SIGKILL
 * while several clients edit recipes, rate them, check shopping items off, plan meals and create
 * recipes, each client on its own records. Started again on the same folder, every write that was
 * answered 2xx is there, a write still in flight is there or not but never half there, the folder
 * checks clean (`larder check`), and no temp file is left behind. A second kill lands right as the
 * server answers its first request, while it settles its index; the third start still has it all.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { larder, tempDir } from "../../cli/testing/run-cli.js";
import sharp from "sharp";
import { startServedLarder, type ServedLarder } from "../support/served-larder.js";
import { makeZip, type ZipSpec } from "../support/zip-writer.js";

const WRITERS = 4;
/** Answered writes, counted over every writer, before the kill. */
const KILL_AFTER = 48;
const DAY = "2026-03-02";

/** A record's value as last answered 2xx, and one sent but not answered when the server died. */
interface Watched<T> {
  acked: T;
  inFlight: T | undefined;
}

interface Writer {
  slugs: string[];
  descriptions: Map<string, Watched<string>>;
  ratings: Map<string, Watched<number>>;
  items: Map<string, Watched<boolean> & { body: Record<string, unknown> }>;
  /** Titles of plan entries and names of recipes: answered, or in flight. */
  plans: Watched<string[]>;
  created: Watched<string[]>;
}

let dir: { path: string; cleanup(): Promise<void> };
let dataDir: string;
let server: ServedLarder | null = null;

beforeAll(async () => {
  dir = await tempDir("larder-kill-");
  dataDir = join(dir.path, "data");
});

afterAll(async () => {
  await server?.close().catch(() => undefined);
  await dir?.cleanup();
});

/** An answer other than 2xx: the server was up and said no, which no kill explains. */
class Refused extends Error {}

async function ok(res: Response, what: string): Promise<unknown> {
  if (res.status >= 300) throw new Refused(`${what} → ${res.status}: ${await res.text()}`);
  const text = await res.text();
  return text === "" ? null : (JSON.parse(text) as unknown);
}

async function setUp(s: ServedLarder, token: string, w: number): Promise<Writer> {
  const writer: Writer = {
    slugs: [],
    descriptions: new Map(),
    ratings: new Map(),
    items: new Map(),
    plans: { acked: [], inFlight: undefined },
    created: { acked: [], inFlight: undefined },
  };
  for (let r = 0; r < 3; r++) {
    const slug = (await ok(
      await s.api("/api/recipes", { method: "POST", token, json: { name: `Kill writer ${w} recipe ${r}` } }),
      "create",
    )) as string;
    writer.slugs.push(slug);
    writer.descriptions.set(slug, { acked: "", inFlight: undefined });
  }
  const list = (await ok(
    await s.api("/api/households/shopping/lists", { method: "POST", token, json: { name: `Kill ${w}` } }),
    "list",
  )) as { id: string };
  for (let i = 0; i < 3; i++) {
    const made = (await ok(
      await s.api("/api/households/shopping/items", {
        method: "POST",
        token,
        json: { shoppingListId: list.id, note: `kill ${w} item ${i}`, quantity: 1 },
      }),
      "item",
    )) as { createdItems: Record<string, unknown>[] };
    const body = made.createdItems[0];
    writer.items.set(body.id as string, { acked: false, inFlight: undefined, body });
  }
  return writer;
}

/**
 * One writer's loop: the next write of its round, until a request fails (the server is gone). `acked`
 * counts answered writes over all writers; at KILL_AFTER the server is killed with others in flight.
 */
async function write(
  s: ServedLarder,
  token: string,
  userId: string,
  w: number,
  writer: Writer,
  acked: { n: number; killed: Promise<void> | null },
): Promise<void> {
  for (let i = 0; ; i++) {
    const slug = writer.slugs[i % writer.slugs.length];
    const kind = i % 5;
    try {
      if (kind === 0) {
        const d = writer.descriptions.get(slug)!;
        d.inFlight = `Written by ${w} in round ${i}.`;
        await ok(
          await s.api(`/api/recipes/${slug}`, { method: "PATCH", token, json: { description: d.inFlight } }),
          "edit",
        );
        d.acked = d.inFlight;
        d.inFlight = undefined;
      } else if (kind === 1) {
        const r = writer.ratings.get(slug) ?? { acked: 0, inFlight: undefined };
        writer.ratings.set(slug, r);
        r.inFlight = 1 + (i % 5);
        await ok(
          await s.api(`/api/users/${userId}/ratings/${slug}`, {
            method: "POST",
            token,
            json: { rating: r.inFlight },
          }),
          "rating",
        );
        r.acked = r.inFlight;
        r.inFlight = undefined;
      } else if (kind === 2) {
        const [id, item] = [...writer.items][i % writer.items.size];
        item.inFlight = !item.acked;
        const answer = (await ok(
          await s.api(`/api/households/shopping/items/${id}`, {
            method: "PUT",
            token,
            json: { ...item.body, checked: item.inFlight },
          }),
          "check",
        )) as { updatedItems: Record<string, unknown>[] };
        item.body = answer.updatedItems.find((u) => u.id === id) ?? item.body;
        item.acked = item.inFlight;
        item.inFlight = undefined;
      } else if (kind === 3) {
        const title = `Kill plan ${w}-${i}`;
        writer.plans.inFlight = [title];
        await ok(
          await s.api("/api/households/mealplans", { method: "POST", token, json: { date: DAY, title } }),
          "plan",
        );
        writer.plans.acked.push(title);
        writer.plans.inFlight = undefined;
      } else {
        const name = `Kill new ${w}-${i}`;
        writer.created.inFlight = [name];
        await ok(await s.api("/api/recipes", { method: "POST", token, json: { name } }), "new recipe");
        writer.created.acked.push(name);
        writer.created.inFlight = undefined;
      }
    } catch (e) {
      // Only the kill ends a writer: a connection it cut, not an answer.
      if (acked.killed && !(e instanceof Refused)) return;
      throw e;
    }
    if (++acked.n === KILL_AFTER) acked.killed = s.kill();
  }
}

/** Everything the writers were answered is there; what was in flight is there whole or not at all. */
async function expectWritesKept(s: ServedLarder, writers: Writer[]): Promise<void> {
  const token = await s.login();
  const recipes = (await ok(await s.api("/api/recipes?perPage=-1", { token }), "recipes")) as {
    items: { name: string; slug: string; id: string }[];
  };
  const names = new Set(recipes.items.map((r) => r.name));
  const plans = (await ok(
    await s.api(`/api/households/mealplans?start_date=${DAY}&end_date=${DAY}&perPage=-1`, { token }),
    "plans",
  )) as { items: { title: string }[] };
  const titles = plans.items.map((p) => p.title);
  for (const writer of writers) {
    for (const [slug, d] of writer.descriptions) {
      const recipe = (await ok(await s.api(`/api/recipes/${slug}`, { token }), slug)) as {
        id: string;
        description: string;
      };
      expect([d.acked, d.inFlight]).toContain(recipe.description);
      const r = writer.ratings.get(slug);
      if (r) {
        // 404: not rated, as before the writer's first rating was answered.
        const res = await s.api(`/api/users/self/ratings/${recipe.id}`, { token });
        const mine =
          res.status === 404 ? { rating: 0 } : ((await ok(res, "rating")) as { rating: number | null });
        expect([r.acked, r.inFlight], slug).toContain(mine.rating ?? 0);
      }
    }
    for (const [id, item] of writer.items) {
      const got = (await ok(await s.api(`/api/households/shopping/items/${id}`, { token }), id)) as {
        checked: boolean;
      };
      expect([item.acked, item.inFlight]).toContain(got.checked);
    }
    for (const name of writer.created.acked) expect(names).toContain(name);
    for (const title of writer.plans.acked) expect(titles.filter((t) => t === title)).toHaveLength(1);
    for (const title of writer.plans.inFlight ?? [])
      expect(titles.filter((t) => t === title).length).toBeLessThan(2);
  }
}

/** A Nextcloud Cookbook export of `n` recipes, each with its photo, for a migration to take a while over. */
async function nextcloudExport(n: number): Promise<Buffer> {
  const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#c0392b" } })
    .jpeg()
    .toBuffer();
  const entries: ZipSpec[] = [];
  for (let i = 0; i < n; i++) {
    const recipe = {
      "@type": "Recipe",
      name: `Migrated dish ${i}`,
      recipeIngredient: [`${i + 1} cups flour`, "2 eggs"],
      recipeInstructions: ["Mix.", "Bake."],
    };
    entries.push({ name: `Dish ${i}/recipe.json`, data: JSON.stringify(recipe) });
    entries.push({ name: `Dish ${i}/full.jpg`, data: photo, store: true });
  }
  return makeZip(entries);
}

/**
 * Stops the server, then `larder check` finds no broken file and no orphan, and no temp file is left:
 * those of killed writes are swept when the folder opens again.
 */
async function closeAndCheck(): Promise<void> {
  await server?.close();
  server = null;
  const check = await larder(["check", "--data", dataDir, "--json"]);
  expect(check.exitCode, String(check.stdout) + String(check.stderr)).toBe(0);
  expect(await tempFiles(dataDir)).toEqual([]);
}

/** Files whose names say they are a write's temp file, anywhere in the folder. */
async function tempFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /\.tmp$|\.partial$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

describe("kill -9 while clients write", () => {
  const writers: Writer[] = [];

  it("keeps every answered write, and nothing half-written, across a SIGKILL under load", async () => {
    server = await startServedLarder({}, undefined, { dataDir });
    const s = server;
    const token = await s.login();
    const me = (await ok(await s.api("/api/users/self", { token }), "self")) as { id: string };
    for (let w = 0; w < WRITERS; w++) writers.push(await setUp(s, token, w));
    const acked = { n: 0, killed: null as Promise<void> | null };
    await Promise.all(writers.map((writer, w) => write(s, token, me.id, w, writer, acked)));
    await acked.killed;
    expect(acked.n).toBeGreaterThanOrEqual(KILL_AFTER);
    // Something was still in flight when the server died, or the kill proved little.
    const inFlight = writers.flatMap((wr) => [
      ...[...wr.descriptions.values()].map((d) => d.inFlight),
      ...[...wr.ratings.values()].map((r) => r.inFlight),
      ...[...wr.items.values()].map((i) => i.inFlight),
      wr.plans.inFlight,
      wr.created.inFlight,
    ]);
    expect(inFlight.filter((v) => v !== undefined).length).toBeGreaterThan(0);
    server = await startServedLarder({}, undefined, { dataDir });
    await expectWritesKept(server, writers);
  }, 120_000);

  it("starts again after a kill while it settles its first start, and still has every write", async () => {
    // Killed right after its first answer: the index cache and search index are still being written.
    await server!.kill();
    server = await startServedLarder({}, undefined, { dataDir });
    await ok(await server.api("/api/app/about"), "about");
    await server.kill();
    server = await startServedLarder({}, undefined, { dataDir });
    await expectWritesKept(server, writers);
    await closeAndCheck();
  }, 120_000);

  it("leaves the folder as it was or as the backup had it when killed during a restore", async () => {
    server = await startServedLarder({}, undefined, { dataDir });
    const token = await server.login();
    await ok(await server.api("/api/admin/backups", { method: "POST", token }), "backup");
    const { imports } = (await ok(await server.api("/api/admin/backups", { token }), "backups")) as {
      imports: { name: string }[];
    };
    // Two changes after the backup: a restore takes both away, a rolled-back one keeps both.
    await ok(
      await server.api("/api/recipes", { method: "POST", token, json: { name: "After the backup" } }),
      "new",
    );
    const slug = writers[0].slugs[0];
    await ok(
      await server.api(`/api/recipes/${slug}`, {
        method: "PATCH",
        token,
        json: { description: "After the backup." },
      }),
      "edit",
    );
    const journal = join(dataDir, ".larder", "restore", "state.json");
    const phase = async () => {
      const text = await readFile(journal, "utf8").catch(() => null);
      return text === null ? null : (JSON.parse(text) as { phase: string }).phase;
    };

    /**
     * Starts the restore and kills the server at the first journal phase `at` accepts (null: the
     * journal gone again, the restore done); then starts it again. The phase it was killed at, and
     * which of the two changes the folder has.
     */
    const restoreKilled = async (at: (phase: string | null) => boolean) => {
      const s = server!;
      let answered: number | null = null;
      void s
        .api(`/api/admin/backups/${imports[0].name}/restore`, { method: "POST", token: await s.login() })
        .then(
          (res) => (answered = res.status),
          () => undefined,
        );
      let seen = false;
      let killedAt: string | null;
      for (;;) {
        const p = await phase();
        seen ||= p !== null;
        if (seen && at(p)) {
          killedAt = p;
          break;
        }
        // Answered before the journal showed what we wait for: a refusal, or done between two looks.
        if (answered !== null && answered >= 300) throw new Error(`restore → ${answered}`);
        if (answered !== null && p === null) {
          killedAt = null;
          break;
        }
        await new Promise((r) => setImmediate(r));
      }
      await s.kill();
      // The phase the process died in, as its journal says: it may have moved on since the look above.
      killedAt = await phase();
      server = await startServedLarder({}, undefined, { dataDir });
      const t = await server.login();
      const recipes = (await ok(await server.api("/api/recipes?perPage=-1", { token: t }), "recipes")) as {
        items: { name: string }[];
      };
      const recipe = (await ok(await server.api(`/api/recipes/${slug}`, { token: t }), "recipe")) as {
        description: string;
      };
      await expect(readdir(join(dataDir, ".larder", "restore"))).rejects.toThrow(/ENOENT/);
      const kept = [
        recipes.items.some((r) => r.name === "After the backup"),
        recipe.description === "After the backup.",
      ];
      // Whole either way: both changes kept (rolled back) or both gone (the backup's folder).
      expect([
        [true, true],
        [false, false],
      ]).toContainEqual(kept);
      return { killedAt, kept };
    };

    // Unpacked, the live folder not touched yet: the restore is dropped.
    const first = await restoreKilled(() => true);
    if (first.killedAt === "staged") expect(first.kept).toEqual([true, true]);
    // Moving the folder out or the backup in (or just done): rolled back or forward.
    await restoreKilled((p) => p !== "staged");

    await closeAndCheck();
  }, 120_000);

  it("leaves only whole recipes, each with its photo or none, when killed during a migration", async () => {
    server = await startServedLarder({}, undefined, { dataDir });
    const token = await server.login();
    const before = (await ok(await server.api("/api/recipes?perPage=-1", { token }), "recipes")) as {
      items: unknown[];
    };
    const form = new FormData();
    form.set("migration_type", "nextcloud");
    form.set("archive", new Blob([new Uint8Array(await nextcloudExport(80))]), "nextcloud.zip");
    let answered: number | null = null;
    void server.api("/api/groups/migrations", { method: "POST", token, body: form }).then(
      (res) => (answered = res.status),
      () => undefined,
    );
    // Killed once the migration has written some of its recipes and is between the next one's photo
    // and its file: the moment that left a photo folder without a recipe.
    const recipes = join(dataDir, "groups", "home", "recipes");
    const between = async () => {
      const names = new Set(await readdir(recipes));
      const written = [...names].filter((n) => n.startsWith("migrated-dish-") && n.endsWith(".md"));
      const photoOnly = [...names].some(
        (n) => n.startsWith("migrated-dish-") && !n.endsWith(".md") && !names.has(`${n}.md`),
      );
      return written.length >= 3 && photoOnly;
    };
    while (!(await between())) {
      if (answered !== null && answered >= 300) throw new Error(`the migration → ${answered}`);
      // Done between two looks (a fast machine): killed all the same; what follows still holds.
      if (answered !== null) break;
      await new Promise((r) => setImmediate(r));
    }
    await server.kill();

    server = await startServedLarder({}, undefined, { dataDir });
    const t = await server.login();
    const after = (await ok(await server.api("/api/recipes?perPage=-1", { token: t }), "recipes")) as {
      items: { slug: string; name: string }[];
    };
    const dishes = after.items.filter((r) => r.name.startsWith("Migrated dish"));
    expect(dishes.length).toBeGreaterThanOrEqual(3);
    expect(after.items.length).toBe(before.items.length + dishes.length);
    for (const d of dishes) {
      const recipe = (await ok(await server.api(`/api/recipes/${d.slug}`, { token: t }), d.slug)) as {
        id: string;
        recipeIngredient: unknown[];
      };
      expect(recipe.recipeIngredient).toHaveLength(2);
    }
    // No broken file, and no photo folder without its recipe.
    await closeAndCheck();
  }, 120_000);
});
