import { describe, expect, it } from "vitest";
import {
  DEFAULT_TIMELINE_PREFS,
  extensionOf,
  fromLocalInput,
  parseTimelinePrefs,
  toLocalInput,
  visibleEvents,
} from "./timeline.js";

describe("timeline preferences", () => {
  it("default to oldest first with every type shown (spec §3)", () => {
    expect(parseTimelinePrefs(null)).toEqual({ orderDirection: "asc", types: ["info", "system", "comment"] });
    expect(DEFAULT_TIMELINE_PREFS.orderDirection).toBe("asc");
  });

  it("keep known types only, once each, in the canonical order", () => {
    const p = parseTimelinePrefs(
      JSON.stringify({ orderDirection: "desc", types: ["comment", "bogus", "info", "info"] }),
    );
    expect(p).toEqual({ orderDirection: "desc", types: ["info", "comment"] });
  });

  it("keep an empty choice, and fall back field by field when damaged", () => {
    expect(parseTimelinePrefs(JSON.stringify({ types: [] })).types).toEqual([]);
    expect(parseTimelinePrefs(JSON.stringify({ orderDirection: "sideways", types: "info" }))).toEqual({
      orderDirection: "asc",
      types: ["info", "system", "comment"],
    });
    expect(parseTimelinePrefs("{not json")).toEqual(parseTimelinePrefs(null));
  });
});

describe("visible events", () => {
  const e = (id: string, eventType: string, timestamp: string) => ({ id, eventType, timestamp });
  const events = [
    e("b", "info", "2026-11-25T10:00:00Z"),
    e("a", "system", "2026-11-20T10:00:00Z"),
    e("c", "comment", "2026-11-25T10:00:00Z"),
    e("d", "info", "2026-11-22T08:00:00+02:00"),
  ];

  it("orders by time, oldest or newest first, ties by id", () => {
    const asc = visibleEvents(events, { orderDirection: "asc", types: ["info", "system", "comment"] });
    expect(asc.map((x) => x.id)).toEqual(["a", "d", "b", "c"]);
    const desc = visibleEvents(events, { orderDirection: "desc", types: ["info", "system", "comment"] });
    expect(desc.map((x) => x.id)).toEqual(["c", "b", "d", "a"]);
  });

  it("shows only the chosen types and leaves its input alone", () => {
    const shown = visibleEvents(events, { orderDirection: "asc", types: ["info"] });
    expect(shown.map((x) => x.id)).toEqual(["d", "b"]);
    expect(events.map((x) => x.id)).toEqual(["b", "a", "c", "d"]);
  });
});

describe("event time input", () => {
  it("round-trips a time through the datetime-local field in the browser's zone", () => {
    const iso = new Date(2026, 10, 25, 14, 5).toISOString();
    expect(toLocalInput(iso)).toBe("2026-11-25T14:05");
    expect(fromLocalInput("2026-11-25T14:05")).toBe(iso);
  });

  it("refuses what is not a date and time", () => {
    expect(fromLocalInput("")).toBeNull();
    expect(fromLocalInput("2026-11-25")).toBeNull();
    expect(toLocalInput("nonsense")).toBe("");
  });
});

describe("photo extension", () => {
  it("takes the file name's extension, lower case", () => {
    expect(extensionOf("Lunch.JPG")).toBe("jpg");
    expect(extensionOf("photo")).toBe("");
    expect(extensionOf("archive.tar.gz")).toBe("gz");
  });
});
