/**
 * `npm run eval:import`: serve the saved recipe pages of ../shared/fixtures/recipe-pages/ from a loopback
 * HTTP server, import each through the real API (POST /api/recipes/create/url, then GET the recipe;
 * the image URL the importer chose comes from POST /api/recipes/test-scrape-url, since a recipe keeps
 * the image, not its URL), and write per-field match rates into BENCHMARKS.md between markers.
 *
 *   npm run eval:import [-- --no-write] [--only <host>] [--verbose]
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Larder, FIRST_ADMIN } from "../../core/larder.js";
import { loadConfig } from "../../core/config.js";
import { consoleLogger } from "../../core/log/logger.js";
import { startServer } from "../../web/server/server.js";
import { builtinPlugins } from "../../plugins/builtins.js";
import { toMinutes } from "../../plugins/importers/schema-org/normalise.js";
import { FIELDS, domFields, score, type Field, type Observed } from "./metric.js";
import { writeFormatted } from "../write-formatted.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const PAGES = join(ROOT, "../shared/fixtures/recipe-pages");
const START = "<!-- import-eval:start -->";
const END = "<!-- import-eval:end -->";

interface Fixture {
  site: string;
  html: string;
  expected: string;
  schema_org: "json-ld" | "microdata" | "none";
  fields_scraped_from_html_not_schema: string[];
}

interface Row {
  fixture: Fixture;
  status: number;
  error: string | null;
  got: Observed;
  scores: Partial<Record<Field, { strict: boolean; lenient: number }>>;
}

const args = process.argv.slice(2);
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : null;
const verbose = args.includes("--verbose");

async function main(): Promise<void> {
  if (!existsSync(join(PAGES, "manifest.json"))) {
    console.error(`The saved pages are not here (${PAGES}); nothing to evaluate.`);
    process.exit(2);
  }
  const manifest = JSON.parse(await readFile(join(PAGES, "manifest.json"), "utf8")) as {
    fixtures: Fixture[];
  };
  const fixtures = manifest.fixtures.filter((f) => !only || f.site === only);

  const pages = createServer((req, res) => {
    const rel = decodeURIComponent((req.url ?? "/").slice(1).split("?")[0]);
    const file = resolve(PAGES, rel);
    if (!file.startsWith(PAGES + "/") || !rel.endsWith(".testhtml")) return void res.writeHead(404).end();
    readFile(file).then(
      (data) => res.writeHead(200, { "Content-Type": "text/html" }).end(data),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((r) => pages.listen(0, "127.0.0.1", r));
  const pagesUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;

  const base = await mkdtemp(join(tmpdir(), "larder-eval-"));
  const config = loadConfig({} as NodeJS.ProcessEnv, {
    dataDir: join(base, "data"),
    production: false,
    bcryptRounds: 4,
    fetchAllow: "127.0.0.1",
  });
  const larder = await Larder.open(config, { log: consoleLogger("silent"), plugins: builtinPlugins });
  const server = await startServer({ larder, port: 0, host: "127.0.0.1" });
  const tokenRes = await fetch(`${server.url}/api/auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: FIRST_ADMIN.username, password: FIRST_ADMIN.password }),
  });
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  const api = (path: string, body?: unknown) =>
    fetch(server.url + path, {
      method: body === undefined ? "GET" : "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  const rows: Row[] = [];
  const started = Date.now();
  for (const fx of fixtures) {
    const expected = JSON.parse(await readFile(join(PAGES, fx.expected), "utf8")) as Record<string, unknown>;
    const url = `${pagesUrl}/${fx.html}`;
    const got: Observed = {
      title: null,
      ingredients: [],
      instructions_list: [],
      total_time: null,
      yields: null,
      image: null,
    };
    const res = await api("/api/recipes/create/url", { url, includeTags: false });
    let error: string | null = null;
    if (res.status === 201) {
      const slug = (await res.json()) as string;
      const r = (await (await api(`/api/recipes/${encodeURIComponent(slug)}`)).json()) as Record<
        string,
        unknown
      >;
      got.title = typeof r.name === "string" ? r.name : null;
      // What a Mealie client or script shows for an imported line: a structured ingredient carries the
      // line it was read from in originalText (decision 0150); a note-only one's note is the line.
      got.ingredients = ((r.recipeIngredient ?? []) as Array<Record<string, unknown>>).map((i) =>
        String(i.originalText || i.note || i.display || ""),
      );
      // A step's title (its section's heading) and summary (its own name): recipe-scrapers lists them as items.
      got.instructions_list = ((r.recipeInstructions ?? []) as Array<Record<string, unknown>>).flatMap((s) =>
        [s.title, s.summary, s.text].filter((x): x is string => typeof x === "string" && x !== ""),
      );
      got.total_time = toMinutes(r.totalTime ?? null);
      got.yields = typeof r.recipeYield === "string" && r.recipeYield ? r.recipeYield : null;
      const scraped = await api("/api/recipes/test-scrape-url", { url });
      const view = (await scraped.json()) as Record<string, unknown> | string;
      got.image = typeof view === "object" && typeof view.image === "string" ? view.image : null;
    } else {
      error = `${res.status} ${await res.text()}`;
    }
    const scores: Row["scores"] = {};
    for (const f of FIELDS) {
      const s = score(f, expected, got);
      if (s) scores[f] = s;
    }
    rows.push({ fixture: fx, status: res.status, error, got, scores });
    if (
      verbose &&
      (!args.includes("--derivable") || domFields(fx.fields_scraped_from_html_not_schema).length === 0)
    ) {
      const misses = FIELDS.filter((f) => scores[f] && !scores[f]!.strict);
      console.log(
        `${fx.site.padEnd(32)} ${res.status} ${misses.length ? `miss: ${misses.join(", ")}` : "all"}${error ? ` ${error.slice(0, 100)}` : ""}`,
      );
      for (const f of misses)
        console.log(
          `   ${f}: expected ${JSON.stringify(expected[f]).slice(0, 300)}\n   ${" ".repeat(f.length)}  got      ${JSON.stringify(got[f]).slice(0, 300)}`,
        );
    }
  }
  const seconds = (Date.now() - started) / 1000;
  await server.close();
  await larder.close();
  await new Promise((r) => pages.close(r));
  await rm(base, { recursive: true, force: true });

  const report = render(rows, seconds);
  console.log(report);
  if (!args.includes("--no-write") && !only) {
    const path = join(ROOT, "BENCHMARKS.md");
    const text = await readFile(path, "utf8");
    const section = `${START}\n${report}\n${END}`;
    const next =
      text.includes(START) && text.includes(END)
        ? text.slice(0, text.indexOf(START)) + section + text.slice(text.indexOf(END) + END.length)
        : `${text.trimEnd()}\n\n${section}\n`;
    await writeFormatted(path, next);
    console.log(`written to ${path}`);
  }
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : "–");

function rates(rows: Row[]): Record<Field, { n: number; strict: number; lenient: number }> {
  const out = {} as Record<Field, { n: number; strict: number; lenient: number }>;
  for (const f of FIELDS) {
    const scored = rows.map((r) => r.scores[f]).filter((s): s is { strict: boolean; lenient: number } => !!s);
    out[f] = {
      n: scored.length,
      strict: scored.filter((s) => s.strict).length,
      lenient: scored.reduce((a, s) => a + s.lenient, 0),
    };
  }
  return out;
}

function render(rows: Row[], seconds: number): string {
  const derivable = rows.filter((r) => domFields(r.fixture.fields_scraped_from_html_not_schema).length === 0);
  const strata = (["json-ld", "microdata", "none"] as const).map(
    (s) => [s, rows.filter((r) => r.fixture.schema_org === s)] as const,
  );
  const sets: Array<[string, Row[]]> = [
    ["all pages", rows],
    ["schema-derivable subset", derivable],
    ...strata.map(([s, r]) => [`stratum ${s}`, r] as [string, Row[]]),
  ];
  const targets: Record<Field, number> = {
    title: 95,
    ingredients: 90,
    instructions_list: 85,
    total_time: 90,
    yields: 85,
    image: 85,
  };
  const lines: string[] = [];
  lines.push("## Recipe import (`npm run eval:import`)");
  lines.push("");
  lines.push(
    `The ${rows.length} saved pages of \`../shared/fixtures/recipe-pages/\`, served from loopback and imported through the API ` +
      `(\`POST /api/recipes/create/url\`, read back with \`GET /api/recipes/{slug}\`; the chosen image URL from \`POST /api/recipes/test-scrape-url\`). ` +
      `Metric of that folder's SOURCE.md: strict per-field match rate (lenient in brackets: item F1 for lists, leading number for yields, URL without query or size suffix for images). ` +
      `${rows.filter((r) => r.status === 201).length} pages imported, ${rows.filter((r) => r.status !== 201).length} refused; ${seconds.toFixed(1)} s in all.`,
  );
  lines.push("");
  lines.push(`| set | pages | ${FIELDS.join(" | ")} | macro mean | all six |`);
  lines.push(`|---|---|${FIELDS.map(() => "---").join("|")}|---|---|`);
  for (const [name, set] of sets) {
    const r = rates(set);
    const macro = FIELDS.reduce((a, f) => a + (r[f].n ? r[f].strict / r[f].n : 0), 0) / FIELDS.length;
    const allSix = set.filter((row) => FIELDS.every((f) => !row.scores[f] || row.scores[f]!.strict)).length;
    lines.push(
      `| ${name} | ${set.length} | ${FIELDS.map((f) => `${pct(r[f].strict, r[f].n)} (${pct(r[f].lenient, r[f].n)})`).join(" | ")} | ${(100 * macro).toFixed(1)} % | ${pct(allSix, set.length)} |`,
    );
  }
  lines.push("");
  const d = rates(derivable);
  lines.push(
    "Targets on the schema-derivable subset: " +
      FIELDS.map(
        (f) =>
          `${f} ≥ ${targets[f]} % (${d[f].n ? ((100 * d[f].strict) / d[f].n).toFixed(1) : "–"} %, ${d[f].n && (100 * d[f].strict) / d[f].n >= targets[f] ? "met" : "not met"})`,
      ).join("; ") +
      ".",
  );
  return lines.join("\n");
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
