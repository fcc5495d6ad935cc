/**
 * The calls `larder import` makes: Mealie's create-from-URL, -HTML-or-JSON, -zip and -image, each giving
 * the new recipe's slug. Answered by core in this process, as the folder's super user (whom a running
 * server's lock token also acts as), or by that server's API (cli/calls.ts).
 */
import type { CallsSource } from "../calls.js";
import { localActor } from "../users/local.js";
import { ServerClient } from "../users/server-client.js";
import { htmlOrJsonInput } from "../../core/imports/html-or-json.js";

export interface ImportCalls {
  url(url: string, tags: boolean): Promise<string>;
  /** A saved page, or schema.org JSON (text starting with `{` or `[`). */
  htmlOrJson(data: string, tags: boolean): Promise<string>;
  zip(data: Buffer): Promise<string>;
  image(data: Buffer, name: string): Promise<string>;
}

/** A page can take a while to fetch and read; a photo longer, through a model. */
const IMPORT_TIMEOUT_MS = 10 * 60_000;

export const importCalls: CallsSource<ImportCalls> = {
  local(larder) {
    const actor = localActor(larder);
    const opts = (tags: boolean) => ({ tags, categories: false, source: "cli" });
    return {
      url: async (url, tags) =>
        (await larder.imports.importOne(actor, { type: "url", url }, opts(tags))).slug,
      htmlOrJson: async (data, tags) =>
        (await larder.imports.importOne(actor, htmlOrJsonInput(data), opts(tags))).slug,
      zip: async (data) => (await larder.imports.importZip(actor, data)).slug,
      image: async (data) => (await larder.imports.importImages(actor, [{ data }])).slug,
    };
  },
  server(lock, dataDir) {
    const client = new ServerClient(lock, dataDir);
    const post = (path: string, body: unknown) =>
      client.request<string>("POST", path, body, { timeoutMs: IMPORT_TIMEOUT_MS });
    const upload = (field: string, data: Buffer, name: string) => {
      const f = new FormData();
      f.set(field, new Blob([new Uint8Array(data)]), name);
      return f;
    };
    return {
      url: (url, tags) => post("/api/recipes/create/url", { url, includeTags: tags }),
      htmlOrJson: (data, tags) => post("/api/recipes/create/html-or-json", { data, includeTags: tags }),
      zip: (data) => post("/api/recipes/create/zip", upload("archive", data, "recipe.zip")),
      image: (data, name) => post("/api/recipes/create/image", upload("images", data, name)),
    };
  },
};
