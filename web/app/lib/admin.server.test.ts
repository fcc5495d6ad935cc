import { describe, expect, it } from "vitest";
import { attempt } from "./admin.server.js";

const warned: string[] = [];
const how = { t: (key: string) => key, log: { warn: (...args: unknown[]) => warned.push(args.join(" ")) } };

function systemError(code: string, syscall: string): Error {
  return Object.assign(new Error(`${code}: failed, ${syscall} '/data/x.json'`), { code, syscall });
}

describe("a form whose write the disk refuses", () => {
  it("stays on the page with what happened and that nothing was lost", async () => {
    const got = await attempt("save", how, () => {
      throw systemError("ENOSPC", "write");
    });
    expect(got.ok).toBe(false);
    expect(got.toast?.type).toBe("error");
    expect(got.toast?.message).toMatch(/disk holding the data folder is full.*not saved.*unchanged/);
    const readOnly = await attempt("save", how, async () => {
      await Promise.resolve();
      throw systemError("EROFS", "open");
    });
    expect(readOnly.toast?.message).toMatch(/read-only file system/);
    // The operator reads why in the server's log, as for the API's refusals.
    expect(warned).toEqual([
      expect.stringMatching(/^form "save" not saved: .*full/),
      expect.stringMatching(/^form "save" not saved: .*read-only/),
    ]);
  });

  it("still fails loudly on anything else", async () => {
    await expect(
      attempt("save", how, () => {
        throw new TypeError("a bug");
      }),
    ).rejects.toThrow("a bug");
    // A permission error of a read is not a refused write.
    await expect(
      attempt("save", how, () => {
        throw systemError("EACCES", "scandir");
      }),
    ).rejects.toThrow(/EACCES/);
    expect(warned.filter((w) => /a bug|EACCES/.test(w))).toEqual([]);
  });
});
