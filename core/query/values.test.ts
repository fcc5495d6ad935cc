import { describe, expect, it } from "vitest";
import { itemCoercer, parseDateTime } from "./values.js";

const micros = (iso: string, extraMicros = 0) => Date.parse(iso) * 1000 + extraMicros;
const day = (iso: string) => Math.floor(Date.parse(iso.slice(0, 10) + "T00:00:00Z") / 86_400_000);

describe("reading dates and datetimes for filters and orders", () => {
  it("reads the forms Larder writes to the microsecond", () => {
    expect(parseDateTime("2023-01-16")).toEqual({
      micros: micros("2023-01-16T00:00:00Z"),
      day: day("2023-01-16"),
    });
    expect(parseDateTime("2023-01-16T11:25:08Z")).toEqual({
      micros: micros("2023-01-16T11:25:08Z"),
      day: day("2023-01-16"),
    });
    expect(parseDateTime("2023-01-16T11:25:08.123456Z")?.micros).toBe(
      micros("2023-01-16T11:25:08.123Z", 456),
    );
    expect(parseDateTime("2023-01-16T11:25:08.5")?.micros).toBe(micros("2023-01-16T11:25:08.500Z"));
    expect(parseDateTime("2023-01-16T11:25:08.123456789+00:00")?.micros).toBe(
      micros("2023-01-16T11:25:08.123Z", 456),
    );
    expect(parseDateTime("2023-01-16T11:25:08+05:30")?.micros).toBe(micros("2023-01-16T05:55:08Z"));
    expect(parseDateTime("2023-01-16T01:25:08-02:00")).toEqual({
      micros: micros("2023-01-16T03:25:08Z"),
      day: day("2023-01-16"),
    });
  });

  it("reads the other ISO-like forms Mealie's clients send", () => {
    expect(parseDateTime("2024/02/25")?.day).toBe(day("2024-02-25"));
    expect(parseDateTime("20240225")?.day).toBe(day("2024-02-25"));
    expect(parseDateTime(" 2024-02-25 10:00 ")?.micros).toBe(micros("2024-02-25T10:00:00Z"));
    expect(parseDateTime("2024-02-25T10:00")?.micros).toBe(micros("2024-02-25T10:00:00Z"));
    expect(parseDateTime("2024-02-25t10:00:00z")?.micros).toBe(micros("2024-02-25T10:00:00Z"));
    expect(parseDateTime("2024-02-25T10:00:00+0100")?.micros).toBe(micros("2024-02-25T09:00:00Z"));
    expect(parseDateTime("2024-02-25T10:00:00 UTC")?.micros).toBe(micros("2024-02-25T10:00:00Z"));
    expect(parseDateTime("2024-02-25T9:00:00")?.micros).toBe(micros("2024-02-25T09:00:00Z"));
  });

  it("refuses what is not a date, whichever way it is read", () => {
    for (const bad of [
      "2023-02-29",
      "2024-13-01",
      "2024-00-10",
      "2024-04-31",
      "2024-02-25T24:00:00Z",
      "2024-02-25T10:60:00Z",
      "2024-02-25T10:00:60Z",
      "2024-02-25T10:00:00.Z",
      "2024-02-25T10:00:00.1234567890Z",
      "2024-02-2x",
      "2024-02-25T10:00:00X",
      "2024-02-25T10:00:00+05:3",
      "yesterday",
      "",
    ])
      expect(parseDateTime(bad), bad).toBeNull();
    expect(parseDateTime("2024-02-29")?.day).toBe(day("2024-02-29"));
  });

  it("gives the same value as the platform's reader for any second of a span of years", () => {
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % n;
    for (let i = 0; i < 2000; i++) {
      const ms = Date.UTC(1990, 0, 1) + next(40 * 365) * 86_400_000 + next(86_400) * 1000;
      const iso = new Date(ms).toISOString().replace(".000Z", "Z");
      expect(parseDateTime(iso)?.micros, iso).toBe(ms * 1000);
    }
  });
});

describe("the remembered parses behind item dates", () => {
  it("give every timestamp its own parse, across growth of the store and a full store starting over", () => {
    const asDay = itemCoercer("date");
    const asMicros = itemCoercer("datetime");
    const stamp = (i: number) => new Date(Date.UTC(2020, 0, 1) + i * 61_001).toISOString();
    // Enough distinct timestamps, with strings that are not dates among them, to pass the store's
    // size (200,000) once: every read must still be the string's own parse.
    for (let i = 0; i < 205_000; i++) {
      const s = stamp(i);
      if (i % 50_000 === 7) expect(asMicros(`not a date ${i}`)).toBeNull();
      if (i % 997 === 0 || i > 199_990) {
        expect(asMicros(s), s).toBe(parseDateTime(s)!.micros);
        expect(asDay(s), s).toBe(parseDateTime(s)!.day);
      } else asMicros(s);
    }
    // Asked again after the store started over: the same answers.
    for (const i of [0, 1, 199_999, 204_999])
      expect(asMicros(stamp(i))).toBe(parseDateTime(stamp(i))!.micros);
  });
});
