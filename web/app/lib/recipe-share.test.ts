import { describe, expect, it } from "vitest";
import { copyText, defaultExpiryDate, expiryInstant, shareLink } from "./recipe-share.js";

describe("share links", () => {
  it("builds the public address from the browser origin", () => {
    expect(shareLink("https://food.example/", "home", "7f1c")).toBe(
      "https://food.example/g/home/shared/r/7f1c",
    );
  });

  it("expires 30 days out by default, at the end of the picked day", () => {
    expect(defaultExpiryDate(new Date(2026, 0, 15, 10))).toBe("2026-02-14");
    const iso = expiryInstant("2026-02-14")!;
    const back = new Date(iso);
    expect([back.getFullYear(), back.getMonth(), back.getDate(), back.getHours()]).toEqual([2026, 1, 14, 23]);
    expect(expiryInstant("2026-02-31")).toBeNull();
    expect(expiryInstant("soon")).toBeNull();
  });

  it("reports copied, failed and unsupported", async () => {
    let got = "";
    await expect(copyText("x", { writeText: async (t) => void (got = t) })).resolves.toBe("copied");
    expect(got).toBe("x");
    await expect(copyText("x", { writeText: () => Promise.reject(new Error("denied")) })).resolves.toBe(
      "failed",
    );
    await expect(copyText("x", undefined)).resolves.toBe("unsupported");
  });
});
