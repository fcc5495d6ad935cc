import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const writes = new Map<string, number>();
vi.mock("../storage/atomic-write.js", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../storage/atomic-write.js")>();
  return {
    ...orig,
    writeFileAtomic: (
      file: string,
      ...rest: Parameters<typeof orig.writeFileAtomic> extends [string, ...infer R] ? R : never
    ) => {
      writes.set(file, (writes.get(file) ?? 0) + 1);
      return orig.writeFileAtomic(file, ...rest);
    },
  };
});

const { Larder } = await import("../larder.js");
const { loadConfig } = await import("../config.js");
const { consoleLogger } = await import("../log/logger.js");

let dir: string;
let larder: import("../larder.js").Larder;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "larder-shopping-"));
  larder = await Larder.open(
    loadConfig({}, { dataDir: join(dir, "data"), production: false, bcryptRounds: 4 }),
    { log: consoleLogger("silent") },
  );
});
afterAll(async () => {
  await larder?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("a burst of check-offs", () => {
  it("keeps every check-off and writes the list file a few times, not once per tap; other lists are not rewritten", async () => {
    const actor = { kind: "user" as const, user: larder.users.all()[0] };
    const list = await larder.shopping.createList(actor, { name: "Burst" });
    const quiet = await larder.shopping.createList(actor, { name: "Quiet" });
    const { createdItems } = await larder.shopping.createItems(
      actor,
      Array.from({ length: 500 }, (_, i) => ({ shoppingListId: list.id, note: `item ${i}`, position: i })),
    );
    await larder.shopping.idle();
    const file = join(
      dir,
      "data",
      "groups",
      "home",
      "households",
      "family",
      "shopping-lists",
      `${list.id}.json`,
    );
    const quietFile = file.replace(list.id, quiet.id);
    const before = writes.get(file) ?? 0;
    const quietBefore = writes.get(quietFile) ?? 0;
    const taps = createdItems.slice(0, 100);
    await Promise.all(taps.map((it) => larder.shopping.updateItem(actor, it.id, { ...it, checked: true })));
    await larder.shopping.idle();
    const after = await larder.shopping.getList(actor, list.id);
    expect(after.listItems.filter((i) => i.checked)).toHaveLength(100);
    const fileWrites = (writes.get(file) ?? 0) - before;
    expect(fileWrites).toBeGreaterThan(0);
    expect(fileWrites).toBeLessThan(10);
    expect((writes.get(quietFile) ?? 0) - quietBefore).toBe(0);
  });
});
