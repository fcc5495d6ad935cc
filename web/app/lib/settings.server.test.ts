import { describe, expect, it } from "vitest";
import type { AppLoadContext } from "react-router";
import { settingsWrite } from "./settings.server.js";

function contextLogging(into: string[]): AppLoadContext {
  const log = { warn: (...args: unknown[]) => into.push(args.map(String).join(" ")) };
  return { larder: { log } } as unknown as AppLoadContext;
}

const diskFull = () =>
  Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write" });

describe("a settings form whose write the disk refuses", () => {
  it("stays on the page, saying the disk is full and nothing was lost, and logs it", async () => {
    const logged: string[] = [];
    const got = await settingsWrite(contextLogging(logged), "preferences", "Saved", () => {
      throw diskFull();
    });
    expect(got).toMatchObject({ intent: "preferences", ok: false, toast: { type: "error" } });
    expect(got.toast?.message).toMatch(/disk holding the data folder is full.*not saved.*unchanged/);
    expect(logged.join("\n")).toMatch(/preferences not saved/);
  });

  it("still sends any other failure to the error page", async () => {
    await expect(
      settingsWrite(contextLogging([]), "preferences", "Saved", () => {
        throw new RangeError("a bug");
      }),
    ).rejects.toThrow("a bug");
  });
});
