import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { JsonDoc } from "./json-doc.js";
import { collectExtraKeys } from "./extra-keys.js";

const Item = z.object({ id: z.string(), note: z.string(), quantity: z.number().default(1) });
const List = z.object({
  id: z.string(),
  name: z.string(),
  items: z.array(Item).default([]),
  tags: z.array(z.object({ name: z.string() })).default([]),
});
type List = z.infer<typeof List>;

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "larder-extra-keys-"));
  await mkdir(join(dir, "tmp"));
  file = join(dir, "list.json");
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const open = () =>
  JsonDoc.open<List>(file, {
    schema: List,
    tmpDir: join(dir, "tmp"),
    defaults: () => ({ id: "l", name: "", items: [], tags: [] }),
  });
const onDisk = async () => JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;

describe("keys a person added by hand to a JSON document", () => {
  it("are written back by the next write, at the document's top and in records by id, and never reach the data", async () => {
    await writeFile(
      file,
      JSON.stringify({
        id: "l",
        name: "Week",
        shop: "corner store",
        items: [
          { id: "a", note: "milk", aisle: 3 },
          { id: "b", note: "eggs", mine: { who: "Sam" } },
        ],
        tags: [{ name: "x", colour: "red" }],
      }),
    );
    const doc = await open();
    expect(doc.data).toEqual({
      id: "l",
      name: "Week",
      items: [
        { id: "a", note: "milk", quantity: 1 },
        { id: "b", note: "eggs", quantity: 1 },
      ],
      tags: [{ name: "x" }],
    });
    // Records reordered, one changed, one added: each keeps its own keys.
    await doc.update((d) => {
      d.name = "Next week";
      d.items = [{ ...d.items[1], quantity: 12 }, d.items[0], { id: "c", note: "bread", quantity: 1 }];
    });
    const saved = await onDisk();
    expect(saved.shop).toBe("corner store");
    expect(saved.name).toBe("Next week");
    expect(saved.items).toEqual([
      { id: "b", note: "eggs", quantity: 12, mine: { who: "Sam" } },
      { id: "a", note: "milk", quantity: 1, aisle: 3 },
      { id: "c", note: "bread", quantity: 1 },
    ]);
    // A record without an id has no place to keep them by.
    expect(saved.tags).toEqual([{ name: "x" }]);
    expect(JSON.stringify(doc.data)).not.toMatch(/shop|aisle|mine/);
  });

  it("go with their record when it is deleted, and give way to a key of the same name the document gains", async () => {
    await writeFile(
      file,
      JSON.stringify({
        id: "l",
        name: "Week",
        items: [
          { id: "a", note: "milk", aisle: 3 },
          { id: "b", note: "eggs" },
        ],
      }),
    );
    const doc = await open();
    await doc.update((d) => {
      d.items = d.items.filter((i) => i.id !== "a");
    });
    await doc.update((d) => {
      d.items.push({ id: "a", note: "oat milk", quantity: 1 });
    });
    expect((await onDisk()).items).toEqual([
      { id: "b", note: "eggs", quantity: 1 },
      { id: "a", note: "oat milk", quantity: 1 },
    ]);
  });

  it("are not kept when they are another spelling of a key the schema read (snake_case input)", () => {
    expect(collectExtraKeys({ food_id: "x", note: "n" }, { foodId: "x", note: "n" })).toBeNull();
    expect(collectExtraKeys({ aisle: 3, note: "n" }, { note: "n" })).toEqual(new Map([["[]", { aisle: 3 }]]));
  });

  it("change no byte of a canonical file written back unchanged", async () => {
    await writeFile(
      file,
      JSON.stringify({ id: "l", name: "Week", items: [{ id: "a", note: "milk", aisle: 3 }] }),
    );
    const doc = await open();
    await doc.update((d) => {
      d.name = "Week 2";
    });
    const text = await readFile(file, "utf8");
    await doc.update((d) => {
      d.name = "Week 2";
    });
    expect(await readFile(file, "utf8")).toBe(text);
    const again = await open();
    await again.update((d) => {
      d.name = "Week 2";
    });
    expect(await readFile(file, "utf8")).toBe(text);
  });
});
