/**
 * Helpers for the store's tests: temp data folders, a tiny vocabulary, canonical recipe files.
 * Not a test file itself (no `.test.ts`), so vitest does not run it.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyRecipeDoc, type RecipeDoc, type Vocabulary } from "../doc.js";
import { serializeRecipeFile } from "../file/recipe-file.js";
import { DataFolder, ensurePrivateDirs } from "../../storage/data-folder.js";
import { consoleLogger } from "../../log/logger.js";
import { RecipeStore } from "./recipe-store.js";
import type { RecipeChange, RecipeStoreOptions } from "./types.js";

export const VOCAB: Vocabulary = {
  units: [
    {
      name: "gram",
      pluralName: "grams",
      abbreviation: "g",
      pluralAbbreviation: null,
      aliases: [],
      useAbbreviation: true,
      fraction: false,
    },
  ],
  foods: [{ name: "flour", pluralName: null, aliases: [] }],
};

export const ADMIN = "7d1b0c52-0f7e-4d7c-8a55-3c1f6f0e2b11";

/** Poll until `check` holds; fails after `timeoutMs` instead of sleeping a fixed time. */
export async function waitFor(check: () => boolean, timeoutMs = 5000, what = "condition"): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export function recipe(name: string, patch: Partial<RecipeDoc> = {}): RecipeDoc {
  return {
    ...emptyRecipeDoc(name),
    description: `All about ${name}.`,
    ingredients: [
      {
        title: null,
        quantity: 200,
        quantityMax: null,
        unit: "gram",
        food: "flour",
        note: "",
        originalText: null,
        referencedRecipe: null,
      },
    ],
    instructions: [{ title: null, summary: null, text: "Mix.", ingredientRefs: [0] }],
    ...patch,
  };
}

export interface TestFolder {
  folder: DataFolder;
  root: string;
  recipes(group?: string): string;
  file(slug: string, group?: string): string;
  /** Write a canonical recipe file by hand (as a person or git would). */
  put(slug: string, doc: RecipeDoc, group?: string): Promise<string>;
  /** Write raw text by hand. */
  putText(slug: string, text: string, group?: string): Promise<string>;
  cleanup(): Promise<void>;
}

export async function makeFolder(): Promise<TestFolder> {
  const root = await mkdtemp(join(tmpdir(), "larder-store-"));
  const folder = new DataFolder(root);
  await ensurePrivateDirs(folder);
  await mkdir(folder.recipesDir("home"), { recursive: true });
  const t: TestFolder = {
    folder,
    root,
    recipes: (group = "home") => folder.recipesDir(group),
    file: (slug, group = "home") => join(folder.recipesDir(group), `${slug}.md`),
    put: (slug, doc, group = "home") => t.putText(slug, serializeRecipeFile(doc, VOCAB), group),
    putText: async (slug, text, group = "home") => {
      await mkdir(folder.recipesDir(group), { recursive: true });
      const path = t.file(slug, group);
      await writeFile(path, text);
      return path;
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
  return t;
}

export interface OpenedStore {
  store: RecipeStore;
  events: RecipeChange[];
  /** Events seen so far as "type group/slug" strings, for compact assertions. */
  seen(): string[];
}

export async function openStore(
  t: TestFolder,
  opts: Partial<RecipeStoreOptions> & { admin?: string | null } = {},
): Promise<OpenedStore> {
  const store = new RecipeStore({
    folder: t.folder,
    vocabularyFor: () => VOCAB,
    vocabularyVersion: () => "v1",
    firstAdminOf: () => (opts.admin === undefined ? ADMIN : opts.admin),
    log: consoleLogger("silent"),
    debounceMs: 30,
    retryMs: 100,
    ...opts,
  });
  const events: RecipeChange[] = [];
  store.on("change", (e) => events.push(e));
  await store.open();
  return { store, events, seen: () => events.map((e) => `${e.type} ${e.groupSlug}/${e.slug}`) };
}
