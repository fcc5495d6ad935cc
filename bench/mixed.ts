/**
 * The mixed load of issue 21: concurrent clients, each a member of one of the folder's groups, for a
 * fixed time; 80 % reads (a page of the recipe list, a new search, a recipe) and 20 % writes (an edit
 * of a recipe's description, a rating, checking a shopping-list item on or off). Every request's
 * latency is kept, by kind; an error is a failed request or any answer other than 2xx.
 */
import { HttpClient, percentile } from "./http.js";
import type { GeneratedGroup } from "./generate.js";
import { NEW_SEARCHES, searchPath } from "./measure.js";
import { prng } from "../core/search/synthetic-recipes.js";

export const MIXED_KINDS = ["list", "search", "recipe", "edit", "rating", "check"] as const;
export type MixedKind = (typeof MIXED_KINDS)[number];

export interface MixedKindResult {
  requests: number;
  errors: number;
  p50: number;
  p99: number;
}

export interface MixedResult {
  clients: number;
  durationS: number;
  groups: number;
  requests: number;
  reqPerSec: number;
  errors: number;
  /** The first few error messages, for the report. */
  errorSamples: string[];
  p50: number;
  p99: number;
  max: number;
  byKind: Record<MixedKind, MixedKindResult>;
}

interface Item {
  id: string;
  checked: boolean;
  [k: string]: unknown;
}

/** A shopping list of 20 items per group, for the check-offs. */
async function shoppingItems(client: HttpClient, group: string): Promise<Item[]> {
  const list = await client.send("POST", "/api/households/shopping/lists", { name: `Bench ${group}` });
  if (list.status >= 300)
    throw new Error(`bench: shopping list → ${list.status}: ${list.body.slice(0, 300)}`);
  const listId = (JSON.parse(list.body) as { id: string }).id;
  const items: Item[] = [];
  for (let i = 0; i < 20; i++) {
    const r = await client.send("POST", "/api/households/shopping/items", {
      shoppingListId: listId,
      note: `bench item ${i}`,
      quantity: 1,
    });
    if (r.status >= 300) throw new Error(`bench: shopping item → ${r.status}: ${r.body.slice(0, 300)}`);
    const body = JSON.parse(r.body) as { createdItems?: Item[] } & Item;
    items.push(...(body.createdItems ?? [body]));
  }
  return items;
}

export async function mixedLoad(
  port: number,
  groups: readonly GeneratedGroup[],
  opts: { clients: number; durationS: number; seed?: number },
): Promise<MixedResult> {
  const setup = groups.map((g) => new HttpClient(port, g.apiToken));
  const items = await Promise.all(groups.map((g, i) => shoppingItems(setup[i], g.slug)));
  for (const c of setup) c.close();

  const samples: Record<MixedKind, number[]> = {
    list: [],
    search: [],
    recipe: [],
    edit: [],
    rating: [],
    check: [],
  };
  const errors: Record<MixedKind, number> = { list: 0, search: 0, recipe: 0, edit: 0, rating: 0, check: 0 };
  const errorSamples: string[] = [];
  const deadline = performance.now() + opts.durationS * 1000;
  let searchAt = 0;

  const client = async (n: number): Promise<void> => {
    const g = groups[n % groups.length];
    const mine = items[n % groups.length];
    const http = new HttpClient(port, g.apiToken);
    const rnd = prng((opts.seed ?? 1) * 1000 + n);
    const slug = () => g.slugs[Math.floor(rnd() * g.slugs.length)];
    try {
      while (performance.now() < deadline) {
        const r = rnd();
        let kind: MixedKind;
        let reply;
        try {
          if (r < 0.3) {
            kind = "list";
            const page = 1 + Math.floor(rnd() * 20);
            reply = await http.get(
              `/api/recipes?page=${page}&perPage=30&orderBy=${rnd() < 0.5 ? "name" : "dateAdded"}`,
            );
          } else if (r < 0.55) {
            kind = "search";
            reply = await http.get(searchPath(NEW_SEARCHES[searchAt++ % NEW_SEARCHES.length]));
          } else if (r < 0.8) {
            kind = "recipe";
            reply = await http.get(`/api/recipes/${slug()}`);
          } else if (r < 0.87) {
            kind = "edit";
            reply = await http.send("PATCH", `/api/recipes/${slug()}`, {
              description: `Edited under load ${n}-${Math.floor(rnd() * 1e6)}.`,
            });
          } else if (r < 0.94) {
            kind = "rating";
            reply = await http.send("POST", `/api/users/${g.userId}/ratings/${slug()}`, {
              rating: 1 + Math.floor(rnd() * 5),
            });
          } else {
            kind = "check";
            const item = mine[Math.floor(rnd() * mine.length)];
            item.checked = !item.checked;
            reply = await http.send("PUT", `/api/households/shopping/items/${item.id}`, item);
            if (reply.status < 300) Object.assign(item, JSON.parse(reply.body) as Item);
          }
        } catch (e) {
          kind ??= "list";
          errors[kind]++;
          if (errorSamples.length < 5) errorSamples.push(String(e));
          continue;
        }
        samples[kind].push(reply.ms);
        if (reply.status >= 300) {
          errors[kind]++;
          if (errorSamples.length < 5)
            errorSamples.push(`${kind} → ${reply.status}: ${reply.body.slice(0, 200)}`);
        }
      }
    } finally {
      http.close();
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: opts.clients }, (_, n) => client(n)));
  const took = (performance.now() - t0) / 1000;
  const all = MIXED_KINDS.flatMap((k) => samples[k]);
  const byKind = Object.fromEntries(
    MIXED_KINDS.map((k) => [
      k,
      {
        requests: samples[k].length,
        errors: errors[k],
        p50: percentile(samples[k], 50),
        p99: percentile(samples[k], 99),
      },
    ]),
  ) as Record<MixedKind, MixedKindResult>;
  return {
    clients: opts.clients,
    durationS: took,
    groups: groups.length,
    requests: all.length,
    reqPerSec: all.length / took,
    errors: MIXED_KINDS.reduce((a, k) => a + errors[k], 0),
    errorSamples,
    p50: percentile(all, 50),
    p99: percentile(all, 99),
    max: Math.max(...all),
    byKind,
  };
}
