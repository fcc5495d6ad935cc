/**
 * The crash guard of `larder serve`: an exception that escapes a request's code (here a throw from a
 * timer the handler set, the shape of an 'error' event nobody listened to) is answered with a 500 on
 * that request and logged, and the server keeps serving. Runs in a child process: in this one,
 * vitest's own handler would (rightly) count the throw as a test failure.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const script = `
import { createServer } from "node:http";
import { installCrashGuard, withRequestScope } from ${JSON.stringify(fileURLToPath(new URL("./crash-guard.ts", import.meta.url)))};
const lines = [];
installCrashGuard({ info() {}, warn() {}, error: (m) => lines.push(m) });
const server = createServer((req, res) => withRequestScope(req, res, () => {
  if (req.url === "/throw") { setTimeout(() => { throw new Error("escaped"); }, 1); return; }
  if (req.url === "/reject") { void Promise.reject(new Error("forgotten")); return; }
  res.end("ok");
}));
server.listen(0, "127.0.0.1", async () => {
  const base = "http://127.0.0.1:" + server.address().port;
  const out = [];
  for (const p of ["/throw", "/ok", "/reject", "/ok"]) {
    const r = await fetch(base + p);
    out.push(p + " " + r.status);
  }
  console.log(JSON.stringify({ out, logged: lines.length, first: lines[0] }));
  server.close();
});
`;

describe("the crash guard", () => {
  it("answers 500 to the request an uncaught exception or rejection came from, logs it, and keeps serving", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { out: string[]; logged: number; first: string };
    expect(result.out).toEqual(["/throw 500", "/ok 200", "/reject 500", "/ok 200"]);
    expect(result.logged).toBe(2);
    expect(result.first).toContain("GET /throw");
  }, 30_000);
});
