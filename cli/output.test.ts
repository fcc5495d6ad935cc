import { describe, expect, it } from "vitest";
import { EXIT, toCliError } from "./output.js";
import { NotFoundError } from "../core/errors.js";

describe("toCliError", () => {
  it("says a full disk is one, and that nothing was lost, with a failing exit code", () => {
    const e = toCliError(
      Object.assign(new Error("ENOSPC: no space left on device, write"), {
        code: "ENOSPC",
        syscall: "write",
      }),
    );
    expect(e.message).toMatch(
      /^The disk holding the data folder is full \(ENOSPC\): the change was not saved/,
    );
    expect(e.exitCode).toBe(EXIT.failure);
  });

  it("maps core's errors by status and anything else by its message", () => {
    expect(toCliError(new NotFoundError("no such recipe")).exitCode).toBe(EXIT.notFound);
    expect(toCliError(new Error("boom")).message).toBe("boom");
  });
});
