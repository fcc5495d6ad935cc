import { describe, expect, it } from "vitest";
import { storageError, StorageError } from "./errors.js";

const sysError = (code: string, syscall: string) =>
  Object.assign(new Error(`${code}: ${syscall}`), { code, syscall });

describe("storageError", () => {
  it("says the disk is full (507), read-only (503) or not writable (500), and that nothing was saved", () => {
    const full = storageError(sysError("ENOSPC", "write"));
    expect(full).toBeInstanceOf(StorageError);
    expect(full?.status).toBe(507);
    expect(full?.body().detail).toEqual({
      message:
        "The disk holding the data folder is full (ENOSPC): the change was not saved, and what was saved before is unchanged",
      error: true,
      exception: null,
    });
    expect(storageError(sysError("EDQUOT", "write"))?.status).toBe(507);
    expect(storageError(sysError("EROFS", "open"))?.status).toBe(503);
    expect(storageError(sysError("EACCES", "open"))?.status).toBe(500);
    expect(storageError(sysError("EACCES", "rename"))?.message).toMatch(/permission denied/);
  });

  it("leaves other errors, and a refused read, to the caller", () => {
    expect(storageError(new Error("boom"))).toBeNull();
    expect(storageError(sysError("ENOENT", "open"))).toBeNull();
    expect(storageError(sysError("EACCES", "read"))).toBeNull();
    expect(storageError(null)).toBeNull();
  });
});
