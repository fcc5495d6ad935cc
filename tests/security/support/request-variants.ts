/**
 * The hostile requests that are not a JSON body: forms, multipart parts and their file names, query
 * strings and parameters, path parameters. Seeded by the caller's generator, like the bodies.
 */
import {
  HOSTILE_FILE_NAMES,
  HOSTILE_QUERY,
  HOSTILE_QUERY_STRINGS,
  HOSTILE_STRINGS,
  MARK,
  pick,
} from "./hostile-values.js";
import { baseValue, fillPath, pathParams, pathValue, type Contract, type Operation } from "./operations.js";
import type { Stored } from "./fixtures.js";
import type { Variant } from "./variants.js";

const QUERY_VARIANTS = 8;
const JSON_TYPE = { "Content-Type": "application/json" };
let counter = 1_000_000;

export function formVariants(op: Operation, path: string, rnd: () => number): Variant[] {
  const form = { "Content-Type": "application/x-www-form-urlencoded" };
  const out: Variant[] = [
    { label: "a form with no fields", method: op.method, path, headers: form, body: "" },
    { label: "a malformed form", method: op.method, path, headers: form, body: "%zz=%&&==&username" },
    {
      label: "a form field given twice",
      method: op.method,
      path,
      headers: form,
      body: "username=a&username=b&password=x",
    },
  ];
  for (let i = 0; i < 6; i++) {
    const value = pick(rnd, HOSTILE_STRINGS);
    const body = new URLSearchParams({ username: value, password: pick(rnd, HOSTILE_STRINGS) }).toString();
    out.push({
      label: `username ${JSON.stringify(value).slice(0, 30)}`,
      method: op.method,
      path,
      headers: form,
      body,
    });
  }
  return out;
}

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
  "hex",
);

function multipartBody(
  parts: { name: string; filename?: string; type?: string; data: Buffer | string }[],
  boundary = "fuzzboundary",
): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disp = `form-data; name="${p.name}"${p.filename === undefined ? "" : `; filename="${p.filename}"`}`;
    const type = p.type ? `Content-Type: ${p.type}\r\n` : "";
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disp}\r\n${type}\r\n`),
      Buffer.from(p.data),
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

export function multipartVariants(
  c: Contract,
  op: Operation,
  path: string,
  s: Stored,
  rnd: () => number,
): Variant[] {
  const props = c.properties(op.body!.schema);
  const fileFields = Object.entries(props)
    .filter(([, p]) => c.core(p).contentMediaType || c.core(p).format === "binary")
    .map(([k]) => k);
  const others = Object.entries(props).filter(([k]) => !fileFields.includes(k));
  const plain = (over: Record<string, string> = {}) =>
    others.map(([k, p]) => ({ name: k, data: over[k] ?? String(baseValue(c, p, s, ++counter, k)) }));
  const type = { "Content-Type": "multipart/form-data; boundary=fuzzboundary" };
  const v = (label: string, body: Buffer, headers: Record<string, string> = type): Variant => ({
    label,
    method: op.method,
    path,
    headers,
    body,
  });
  const file = fileFields[0] ?? "file";
  const out: Variant[] = HOSTILE_FILE_NAMES.map((filename) =>
    v(
      `file name ${JSON.stringify(filename).slice(0, 40)}`,
      multipartBody([...plain(), { name: file, filename, type: "image/png", data: PNG }]),
    ),
  );
  out.push(
    v("no parts", multipartBody([])),
    v("the file part without a file name", multipartBody([...plain(), { name: file, data: PNG }])),
    v(
      "an empty file",
      multipartBody([...plain(), { name: file, filename: "a.png", type: "image/png", data: "" }]),
    ),
    v(
      "markup posing as a picture",
      multipartBody([
        ...plain(),
        {
          name: file,
          filename: "a.png",
          type: "image/png",
          data: "<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>",
        },
      ]),
    ),
    v(
      "the file part twice",
      multipartBody([
        ...plain(),
        { name: file, filename: "a.png", data: PNG },
        { name: file, filename: "b.png", data: PNG },
      ]),
    ),
    v("multipart without a boundary", multipartBody([{ name: file, filename: "a.png", data: PNG }]), {
      "Content-Type": "multipart/form-data",
    }),
    v("a JSON body where multipart belongs", Buffer.from('{"a":1}'), JSON_TYPE),
  );
  for (const [k] of others)
    for (let i = 0; i < 3; i++)
      out.push(
        v(
          `${k} = ${JSON.stringify(pick(rnd, HOSTILE_STRINGS)).slice(0, 30)}`,
          multipartBody([
            ...plain({ [k]: pick(rnd, HOSTILE_STRINGS) }),
            { name: file, filename: "a.zip", type: "application/zip", data: PNG },
          ]),
        ),
      );
  return out;
}

/** A lone surrogate has no UTF-8: it goes as the bytes a careless encoder would make of it. */
function enc(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return "%ED%A0%80";
  }
}

export function queryVariants(
  c: Contract,
  op: Operation,
  path: string,
  s: Stored,
  rnd: () => number,
): Variant[] {
  const required = op.query
    .filter((q) => q.required)
    .map((q) => `${q.name}=${encodeURIComponent(String(baseValue(c, q.schema, s, 0, q.name)))}`);
  const withQuery = (q: string) => `${path}?${[...required, q].filter(Boolean).join("&")}`;
  const out: Variant[] = [];
  const paged = op.query.some((q) => q.name === "page" || q.name === "queryFilter");
  if (paged)
    for (const q of HOSTILE_QUERY_STRINGS)
      out.push({ label: `?${q.slice(0, 60)}`, method: op.method, path: withQuery(q) });
  for (let i = 0; i < QUERY_VARIANTS; i++) {
    const p = pick(rnd, op.query);
    const value = pick(rnd, HOSTILE_QUERY);
    const q = rnd() < 0.25 ? `${p.name}=${enc(value)}&${p.name}=x` : `${p.name}=${enc(value)}`;
    out.push({ label: `?${q.slice(0, 60)}`, method: op.method, path: withQuery(q) });
  }
  return out;
}

/** Path segments sent as written (percent-encoded where a raw byte could not go on the wire). */
const HOSTILE_SEGMENTS = (real: string): string[] => [
  "..",
  "%2e%2e",
  "%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
  `..%2F..%2F${MARK}`,
  "%00",
  "a".repeat(3000),
  // A look-alike of the real value: its first Latin letter swapped for the Cyrillic one that looks the same.
  encodeURIComponent(
    real.replace(/[aceopx]/, (ch) => ({ a: "а", c: "с", e: "е", o: "о", p: "р", x: "х" })[ch] ?? ch),
  ),
  `%E2%80%AE${encodeURIComponent(real)}`,
  "%ff%fe",
  "00000000-0000-0000-0000-00000000000g",
  "1e309",
  "__proto__",
];

export function pathVariants(op: Operation, s: Stored, body: Variant | undefined): Variant[] {
  const out: Variant[] = [];
  for (const p of pathParams(op.template)) {
    const real = pathValue(op.template, p, s);
    for (const seg of HOSTILE_SEGMENTS(real)) {
      out.push({
        label: `path ${p} = ${seg.slice(0, 40)}`,
        method: op.method,
        path: fillPath(op.template, s, { [p]: seg }),
        headers: body?.headers,
        body: body?.body,
      });
    }
  }
  return out;
}
