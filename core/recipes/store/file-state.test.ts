import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashText, readFileState, readFileStateSync } from "./file-state.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "larder-file-state-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("reading a recipe file with its fingerprint", () => {
  it("reads every byte of files of any size, the same as the asynchronous read", async () => {
    for (const size of [0, 1, 1023, 1024, 1025, 1026, 4096, 70_000]) {
      const text = "é".repeat(Math.floor(size / 2)) + "x".repeat(size % 2);
      const path = join(dir, `size-${size}.md`);
      await writeFile(path, text);
      const sync = readFileStateSync(path);
      expect(sync?.text, `${size} bytes`).toBe(text);
      expect(sync?.size).toBe(Buffer.byteLength(text));
      expect(sync?.hash).toBe(hashText(Buffer.from(text)));
      expect(await readFileState(path)).toEqual(sync);
    }
  });

  it("reads neither a symlink nor a folder", async () => {
    await writeFile(join(dir, "real.md"), "hello");
    await symlink(join(dir, "real.md"), join(dir, "link.md"));
    expect(readFileStateSync(join(dir, "link.md"))).toBeNull();
    expect(readFileStateSync(dir)).toBeNull();
    expect(readFileStateSync(join(dir, "gone.md"))).toBeNull();
  });
});
