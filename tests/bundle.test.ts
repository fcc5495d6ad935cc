/**
 * The bundle users run (`npm start`, `npm run larder`, the package's `bin`: dist/bundle/larder.js) finds
 * what it reads from the installation — templates, the seed vocabulary, the nlp parser's model, the
 * worker script, the web build — although its chunks sit at another depth than the sources and than
 * tsc's dist/. The other CLI tests run the bundle only when it is current (cli/testing/run-cli.ts) and
 * the sources through tsx otherwise; these always run it, so they catch a bundle that looks in the wrong
 * place (the nlp model once went missing this way, and every import then kept its ingredients as
 * unparsed notes) or a dependency that bundles differently from how Node loads it (yauzl, below).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execa, type ResultPromise } from "execa";
import { REPO, freePort, tempDir } from "../cli/testing/run-cli.js";
import { runsWith } from "../core/testing/needs.js";

const BUNDLE = join(REPO, "dist", "bundle", "larder.js");
const built = existsSync(BUNDLE);

function run(args: string[]) {
  return execa(process.execPath, [BUNDLE, ...args], {
    reject: false,
    stdin: "ignore",
    env: { LARDER_BCRYPT_ROUNDS: "4", NO_COLOR: "1", CI: undefined },
  });
}

describe.runIf(runsWith(built, "the built bundle (npm run build)"))("the bundled larder", () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let server: ResultPromise | null = null;
  let base = "";

  beforeAll(async () => {
    data = await tempDir("larder-bundle-");
  });

  afterAll(async () => {
    server?.kill("SIGTERM");
    await server?.catch(() => undefined);
    await data?.cleanup();
  });

  it("parses ingredient lines with the nlp model", async () => {
    const res = await run(["parse", "--json", "2 cloves garlic, minced"]);
    expect(res.exitCode, String(res.stderr)).toBe(0);
    const [p] = JSON.parse(String(res.stdout)) as Array<{
      ingredient: { quantity: number; unit: { name: string } | null; food: { name: string } | null };
    }>;
    expect(p.ingredient.quantity).toBe(2);
    expect(p.ingredient.unit?.name).toBe("clove");
    expect(p.ingredient.food?.name).toBe("garlic");
  });

  // yauzl is CommonJS behind a dynamic import; its bundled chunk once had only a default export, and every
  // zip (backups, recipe archives) was refused as unreadable.
  it("reads zip archives: a backup it has just made verifies and restores", async () => {
    const folder = join(data.path, "zips");
    expect((await run(["init", folder])).exitCode).toBe(0);
    const made = await run(["backup", "create", "--data", folder, "--json"]);
    expect(made.exitCode, String(made.stderr)).toBe(0);
    const { name } = JSON.parse(String(made.stdout)) as { name: string };
    const verified = await run(["backup", "verify", name, "--data", folder, "--json"]);
    expect(verified.exitCode, String(verified.stdout)).toBe(0);
    expect(JSON.parse(String(verified.stdout))).toMatchObject({ ok: true });
    const restored = await run(["backup", "restore", name, "--yes", "--data", folder, "--json"]);
    expect(restored.exitCode, String(restored.stdout)).toBe(0);
  });

  it("makes a data folder from its templates and serves it: the API, a page, and an import's parsed ingredients", async () => {
    const init = await run(["init", join(data.path, "folder")]);
    expect(init.exitCode, String(init.stderr)).toBe(0);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = execa(
      process.execPath,
      [BUNDLE, "serve", "--data", join(data.path, "folder"), "--port", String(port)],
      {
        reject: false,
        stdin: "ignore",
        env: { LARDER_BCRYPT_ROUNDS: "4", NO_COLOR: "1" },
      },
    );
    // Wait for the line that says it serves, or for the process to end.
    await new Promise<void>((resolve, reject) => {
      let out = "";
      server!.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("is serving")) resolve();
      });
      void server!.then((r) => reject(new Error(`serve ended: ${String(r.stderr)}`)));
    });

    const about = await fetch(`${base}/api/app/about`);
    expect(about.status).toBe(200);
    const login = await fetch(`${base}/login`);
    expect(login.status).toBe(200);
    expect(await login.text()).toContain("<html");

    const token = await fetch(`${base}/api/auth/token`, {
      method: "POST",
      body: new URLSearchParams({ username: "changeme@example.com", password: "MyPassword" }),
    });
    expect(token.status).toBe(200);
    const auth = {
      authorization: `Bearer ${((await token.json()) as { access_token: string }).access_token}`,
    };
    const page = {
      "@context": "https://schema.org",
      "@type": "Recipe",
      name: "Garlic bread",
      recipeIngredient: ["2 cloves garlic, minced", "1 baguette"],
      recipeInstructions: ["Rub the bread with the garlic."],
    };
    const created = await fetch(`${base}/api/recipes/create/html-or-json`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ data: JSON.stringify(page) }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const slug = (await created.json()) as string;
    const recipe = (await (await fetch(`${base}/api/recipes/${slug}`, { headers: auth })).json()) as {
      recipeIngredient: Array<{ quantity: number | null; food: { name: string } | null; note: string }>;
    };
    expect(recipe.recipeIngredient[0]).toMatchObject({
      quantity: 2,
      food: { name: "garlic" },
      note: "minced",
    });
  });
});
