import { existsSync } from "node:fs";
import { mkdir, readFile, truncate, writeFile } from "node:fs/promises";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { execSync } from "node:child_process";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_SHELL, freePort, json, larder, larderProcess, tempDir, REPO } from "../testing/run-cli.js";
import { classify, linesOf, sniff, type ImportOutcome } from "./import.js";

function hasScript(): boolean {
  try {
    execSync("command -v script", { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const fixture = (name: string) => join(REPO, "tests", "fixtures", "recipe-pages", name);
interface Summary {
  imported: number;
  failed: number;
  results: ImportOutcome[];
}

describe("larder import: what an argument is", () => {
  it("tells URLs from files by form and extension", () => {
    expect(classify("https://example.org/x").kind).toBe("url");
    expect(classify("www.example.org/x").kind).toBe("url");
    expect(classify("a/b.HTML").kind).toBe("html");
    expect(classify("r.json").kind).toBe("json");
    expect(classify("r.zip").kind).toBe("zip");
    expect(classify("photo.jpeg").kind).toBe("image");
    // An extension that says nothing: decided by the file's first bytes once read.
    expect(classify("notes.txt").kind).toBe("file");
    expect(classify("downloads/recipe").kind).toBe("file");
    expect(linesOf("# mine\nhttps://a.test/1\n\n  https://a.test/2  \n")).toEqual([
      "https://a.test/1",
      "https://a.test/2",
    ]);
  });
});

describe("larder import: a file by its first bytes", () => {
  it("knows a zip, a photo, a web page and JSON, and nothing else", () => {
    const b = (s: string) => Buffer.from(s, "latin1");
    expect(sniff(b("PK\x03\x04rest"))).toBe("zip");
    expect(sniff(b("\xff\xd8\xff\xe0JFIF"))).toBe("image");
    expect(sniff(b("\x89PNG\r\n\x1a\n...."))).toBe("image");
    expect(sniff(b("RIFF\x10\x00\x00\x00WEBPVP8 "))).toBe("image");
    expect(sniff(b("\x00\x00\x00\x18ftypheic"))).toBe("image");
    expect(sniff(Buffer.from("\uFEFF  <!DOCTYPE html><html><head>"))).toBe("html");
    expect(sniff(b("<html lang=en>"))).toBe("html");
    expect(sniff(b('\n  {"@context":"https://schema.org"}'))).toBe("json");
    expect(sniff(b('[{"@type":"Recipe"}]'))).toBe("json");
    expect(sniff(b("2 cups flour\n1 egg\n"))).toBeNull();
    expect(sniff(b("<recipe>not a page</recipe>"))).toBeNull();
    expect(sniff(b(""))).toBeNull();
  });
});

describe("larder import", () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let dir: string;
  let site: Server;
  let siteUrl: string;
  const stalled: ServerResponse[] = [];
  beforeAll(async () => {
    tmp = await tempDir();
    dir = join(tmp.path, "data");
    expect((await larder(["init", dir])).exitCode).toBe(0);
    site = createServer((req, res) => {
      const name = (req.url ?? "/").slice(1);
      // A page that never answers, to interrupt an import in the middle.
      if (name === "stalled.html") return void stalled.push(res);
      if (!/^[a-z-]+\.html$/.test(name) || !existsSync(fixture(name))) return void res.writeHead(404).end();
      void readFile(fixture(name)).then((b) => res.writeHead(200, { "Content-Type": "text/html" }).end(b));
    });
    await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const res of stalled) res.destroy();
    await new Promise((r) => site?.close(r));
    await tmp.cleanup();
  });

  it("imports files and URLs directly when no server runs, one result per item, exit 1 if any failed", async () => {
    const list = join(tmp.path, "urls.txt");
    await writeFile(list, `# pages\n${siteUrl}/microdata.html\n${siteUrl}/no-recipe.html\n`);
    const r = await larder(
      ["import", fixture("jsonld-graph.html"), "--from-file", list, "--data", dir, "--json"],
      { env: { LARDER_FETCH_ALLOW: "127.0.0.1" } },
    );
    expect(r.exitCode, String(r.stderr)).toBe(1);
    const out = json<Summary>(r);
    expect(out).toMatchObject({ imported: 2, failed: 1 });
    expect(out.results.map((x) => [x.ok, x.slug ?? null])).toEqual([
      [true, "red-lentil-soup-lemon"],
      [true, "cheese-scones"],
      [false, null],
    ]);
    expect(out.results[2].error).toMatch(/recipe/i);
    expect(existsSync(join(dir, "groups", "home", "recipes", "cheese-scones.md"))).toBe(true);
  });

  it("says in words why a file could not be read: missing, or a folder", async () => {
    await mkdir(join(tmp.path, "shelf.html"), { recursive: true });
    const r = await larder([
      "import",
      join(tmp.path, "missing.html"),
      join(tmp.path, "shelf.html"),
      "--data",
      dir,
      "--json",
    ]);
    expect(r.exitCode).toBe(1);
    const errors = json<Summary>(r).results.map((x) => x.error);
    expect(errors[0]).toMatch(/missing\.html: no such file$/);
    expect(errors[1]).toMatch(/shelf\.html: it is a folder, not a file$/);
  });

  it("takes a file whose extension says nothing by what it holds, and names one it cannot tell", async () => {
    const page = join(tmp.path, "saved-with-curl");
    const notes = join(tmp.path, "notes.txt");
    await writeFile(page, await readFile(fixture("opengraph-only.html")));
    await writeFile(notes, "2 cups flour\n1 egg\n");
    const r = await larder(["import", page, notes, "--data", dir, "--json"]);
    expect(r.exitCode, String(r.stderr)).toBe(1);
    const out = json<Summary>(r);
    expect(out).toMatchObject({ imported: 1, failed: 1 });
    expect(out.results[0]).toMatchObject({ ok: true, slug: "grandma-s-apple-pie" });
    expect(out.results[1].error).toMatch(
      /notes\.txt is: it is not a web page, schema\.org JSON, a recipe zip or a photo$/,
    );
  });

  it("refuses a file larger than an upload may be, before reading it", async () => {
    const big = join(tmp.path, "huge.zip");
    // Sparse: 51 MB long, nothing written.
    await writeFile(big, "");
    await truncate(big, 51 * 1024 * 1024);
    const r = await larder(["import", big, "--data", dir, "--json"]);
    expect(r.exitCode).toBe(1);
    expect(json<Summary>(r).results[0].error).toMatch(
      /huge\.zip is too large to import: 51\.0 MB, where an import takes at most 50 MB$/,
    );
  });

  it("reads a pipe (a shell's <(curl …)) up to the limit, and refuses a device", async () => {
    const piped = await execa(
      "bash",
      ["-c", `${CLI_SHELL} import <(cat ${fixture("microdata.html")}) /dev/zero --data ${dir} --json`],
      { cwd: REPO, reject: false, env: { LARDER_BCRYPT_ROUNDS: "4" }, stdin: "ignore" },
    );
    expect(piped.exitCode, piped.stderr).toBe(1);
    const out = JSON.parse(piped.stdout) as Summary;
    expect(out.results[0]).toMatchObject({ ok: true, slug: expect.stringMatching(/^cheese-scones/) });
    expect(out.results[1].error).toBe("Cannot import /dev/zero: it is not a file");
  });

  it("prints a plain line per item without a terminal, and exits 0 when all went in", async () => {
    const r = await larder(["import", fixture("jsonld-mainentity.html"), "--data", dir]);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toMatch(/^ok\s+.*jsonld-mainentity\.html → crepes-suzette$/m);
  });

  it.skipIf(!hasScript())("draws a progress bar and a line per item on a terminal", async () => {
    const res = await execa(
      "script",
      [
        "-qec",
        `stty rows 40 cols 160; ${CLI_SHELL} import ${fixture("microdata.html")} ${fixture("no-recipe.html")} --data ${dir}`,
        "/dev/null",
      ],
      { cwd: REPO, reject: false, env: { LARDER_BCRYPT_ROUNDS: "4", NO_COLOR: "1" }, stdin: "ignore" },
    );
    expect(res.exitCode).toBe(1);
    expect(res.stdout).toMatch(/✔ .*microdata\.html → cheese-scones(-\d+)?/);
    expect(res.stdout).toMatch(/✘ .*no-recipe\.html: /);
    // Ink 6 may finish before a frame of the bar is painted on a fast import; it has drawn on the
    // terminal when it hid and restored the cursor.
    expect(res.stdout).toContain("\u001b[?25h");
    expect(res.stdout).toContain("1 imported, 1 failed");
  });

  it("goes through the running server when one holds the folder", async () => {
    const port = await freePort();
    const proc = larderProcess(["serve", "--data", dir, "--port", String(port), "--json"], {
      env: { LARDER_FETCH_ALLOW: "127.0.0.1" },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        let text = "";
        const timer = setTimeout(() => reject(new Error(`serve did not start:\n${text}`)), 45_000);
        proc.stdout?.on("data", (c: Buffer) => {
          text += c.toString();
          if (text.trim().endsWith("}")) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const r = await larder(["import", `${siteUrl}/jsonld-graph.html`, "--data", dir, "--json"]);
      expect(r.exitCode, String(r.stderr)).toBe(0);
      // The server imported it (the CLI cannot take the folder's lock while it runs): its slug is the next free one.
      expect(json<Summary>(r).results[0].slug).toBe("red-lentil-soup-lemon-1");
    } finally {
      proc.kill("SIGTERM");
      await proc;
    }
  });

  it.each([
    ["--json", true],
    ["plain", false],
  ])(
    "Ctrl-C in the middle of an import ends it with exit 130 and says so (%s)",
    { timeout: 60_000 },
    async (_label, asJson) => {
      const waiting = stalled.length;
      const proc = larderProcess(
        ["import", `${siteUrl}/stalled.html`, "--data", dir, ...(asJson ? ["--json"] : [])],
        { env: { LARDER_FETCH_ALLOW: "127.0.0.1" } },
      );
      // Interrupted once the page is being fetched.
      await new Promise<void>((resolve, reject) => {
        const deadline = Date.now() + 45_000;
        const poll = () => {
          if (stalled.length > waiting) return resolve();
          if (Date.now() > deadline) return reject(new Error("the import never asked for the page"));
          setTimeout(poll, 20);
        };
        poll();
      });
      proc.kill("SIGINT");
      const r = await proc;
      expect(r.exitCode).toBe(130);
      if (asJson) {
        expect(json(r)).toEqual({ error: { message: "Interrupted", exitCode: 130 } });
      } else {
        expect(String(r.stderr).trim()).toBe("Interrupted");
      }
      // The next command takes the folder at once: the interrupted one's lock is stale.
      const next = await larder(["import", fixture("microdata.html"), "--data", dir, "--json"]);
      expect(next.exitCode, String(next.stderr)).toBe(0);
    },
  );
});
