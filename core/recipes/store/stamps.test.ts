import { describe, expect, it } from "vitest";
import { laterStamp, parseClientStamp, predatesHandEdit } from "./stamps.js";

describe("client updatedAt stamps", () => {
  it("read Mealie's naive datetimes as UTC, with their precision", () => {
    expect(parseClientStamp("2026-11-21T18:02:11")).toEqual({
      ms: Date.UTC(2026, 10, 21, 18, 2, 11),
      precisionMs: 1000,
    });
    expect(parseClientStamp("2026-11-21T18:02:11.123456")).toEqual({
      ms: Date.UTC(2026, 10, 21, 18, 2, 11, 123),
      precisionMs: 1,
    });
    expect(parseClientStamp("2026-11-21T19:02:11+01:00")?.ms).toBe(Date.UTC(2026, 10, 21, 18, 2, 11));
    expect(parseClientStamp("2026-11-21")?.precisionMs).toBe(86_400_000);
    expect(parseClientStamp("yesterday")).toBeNull();
  });
});

describe("a save older than a hand edit", () => {
  const seen = "2026-11-21T18:02:11.400Z";

  it("is refused when the client's copy predates the edit", () => {
    expect(predatesHandEdit("2026-11-21T18:02:10.999Z", seen)).toBe(true);
    expect(predatesHandEdit("2026-11-21T18:02:10", seen)).toBe(true);
  });

  it("passes when the client saw the edit, compared at the precision the client sent", () => {
    expect(predatesHandEdit("2026-11-21T18:02:11.400Z", seen)).toBe(false);
    expect(predatesHandEdit("2026-11-21T18:02:11", seen)).toBe(false);
  });

  it("passes when there was no hand edit, no stamp, or an unreadable one (last write wins)", () => {
    expect(predatesHandEdit("2020-01-01T00:00:00Z", null)).toBe(false);
    expect(predatesHandEdit(undefined, seen)).toBe(false);
    expect(predatesHandEdit("garbage", seen)).toBe(false);
  });
});

describe("reported dateUpdated", () => {
  it("is the later of the front matter and the time a hand edit was seen", () => {
    expect(laterStamp("2026-01-01T00:00:00Z", null)).toBe("2026-01-01T00:00:00Z");
    expect(laterStamp("2026-01-01T00:00:00Z", "2026-02-01T00:00:00.000Z")).toBe("2026-02-01T00:00:00.000Z");
    expect(laterStamp("2026-03-01", "2026-02-01T00:00:00.000Z")).toBe("2026-03-01");
    expect(laterStamp(null, "2026-02-01T00:00:00.000Z")).toBe("2026-02-01T00:00:00.000Z");
  });
});
