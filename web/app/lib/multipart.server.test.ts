/**
 * The UI's multipart reader (recipe image, zip and migration uploads from the pages) under a body that
 * ends inside its file part: busboy destroys the part's stream with "Unexpected end of form", which
 * escaped as an uncaught exception while nobody listened on that stream. It is the form's own error now.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MultipartLimitError, parseMultipartForm } from "./multipart.server.js";

const BOUNDARY = "----larder-ui-boundary";
const filePart = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nimage\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
const request = (body: string) =>
  new Request("http://larder.test/upload", {
    method: "POST",
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    body,
  });

const escaped: unknown[] = [];
const record = (e: unknown) => escaped.push(e);
beforeAll(() => process.on("uncaughtException", record));
afterAll(() => process.off("uncaughtException", record));
afterEach(async () => {
  // A stray error from the part's stream comes a turn after the form settles.
  await new Promise((r) => setImmediate(r));
  expect(escaped.splice(0)).toEqual([]);
});

describe("parseMultipartForm", () => {
  it("answers a body that ends inside the file part with a 400", async () => {
    await expect(
      parseMultipartForm(request(`${filePart}\u00ff\u00d8 half a photo`), { maxFileBytes: 1000 }),
    ).rejects.toMatchObject({ data: expect.stringMatching(/Unexpected end of/), init: { status: 400 } });
  });

  it("answers a form without a boundary with a 400", async () => {
    const bare = new Request("http://larder.test/upload", {
      method: "POST",
      headers: { "content-type": "multipart/form-data" },
      body: "x",
    });
    await expect(parseMultipartForm(bare, { maxFileBytes: 1000 })).rejects.toMatchObject({
      init: { status: 400 },
    });
  });

  it("reads a whole form", async () => {
    const form = await parseMultipartForm(request(`${filePart}0123456789\r\n--${BOUNDARY}--\r\n`), {
      maxFileBytes: 1000,
    });
    expect(form.get("intent")).toBe("image");
    const file = form.get("file") as File;
    expect([file.name, file.type, file.size]).toEqual(["a.jpg", "image/jpeg", 10]);
  });

  it("refuses a file over the cap as it arrives", async () => {
    await expect(
      parseMultipartForm(request(`${filePart}${"x".repeat(2000)}\r\n--${BOUNDARY}--\r\n`), {
        maxFileBytes: 1000,
      }),
    ).rejects.toBeInstanceOf(MultipartLimitError);
  });
});
