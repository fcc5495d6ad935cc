/**
 * The operations the input fuzz attacks, read from the Mealie OpenAPI contract: each one's path, query
 * parameters and request body schema, a valid-looking base value for that schema, and its path filled
 * with the ids of entities the test stored.
 */
import { readFileSync } from "node:fs";
import type { Stored } from "./fixtures.js";

export type Schema = Record<string, unknown>;

export interface Param {
  name: string;
  required: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  /** The contract's path, `{name}` for its parameters. */
  template: string;
  query: Param[];
  body: null | { kind: "json" | "form" | "multipart"; schema: Schema };
  /** The name of the 200/201 answer's schema, when it names one. */
  answer: string | null;
}

export class Contract {
  private readonly doc: {
    paths: Record<string, Record<string, Schema>>;
    components: { schemas: Record<string, Schema> };
  };

  /** From the contract's file, or from an OpenAPI document written out by hand. */
  constructor(source: string | { paths: object; components: { schemas: object } }) {
    this.doc = (
      typeof source === "string" ? JSON.parse(readFileSync(source, "utf8")) : source
    ) as Contract["doc"];
  }

  resolve(s: Schema | undefined): Schema {
    let cur = s ?? {};
    for (let i = 0; i < 10 && typeof cur.$ref === "string"; i++)
      cur = this.doc.components.schemas[(cur.$ref as string).split("/").pop() ?? ""] ?? {};
    return cur;
  }

  operations(): Operation[] {
    const out: Operation[] = [];
    for (const [template, ops] of Object.entries(this.doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const params = (op.parameters as Array<Schema & { in: string }> | undefined) ?? [];
        const content = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)
          ?.content;
        const type = content ? Object.keys(content)[0] : null;
        const ok =
          (op.responses as Record<string, { content?: Record<string, { schema: Schema }> }>)?.[
            method === "post" ? "201" : "200"
          ] ?? (op.responses as Record<string, { content?: Record<string, { schema: Schema }> }>)?.["200"];
        const ref = ok?.content?.["application/json"]?.schema?.$ref;
        out.push({
          method: method.toUpperCase(),
          template,
          query: params
            .filter((p) => p.in === "query")
            .map((p) => ({
              name: p.name as string,
              required: p.required === true,
              schema: p.schema as Schema,
            })),
          body:
            content && type
              ? {
                  kind: type.includes("json") ? "json" : type.includes("multipart") ? "multipart" : "form",
                  schema: content[type].schema,
                }
              : null,
          answer: typeof ref === "string" ? ref.split("/").pop()! : null,
        });
      }
    }
    return out;
  }

  /** The properties of an object schema, through `$ref`, `allOf` and the first object of an `anyOf`. */
  properties(s: Schema): Record<string, Schema> {
    const r = this.resolve(s);
    if (r.properties) return r.properties as Record<string, Schema>;
    for (const k of ["allOf", "anyOf", "oneOf"]) {
      for (const sub of (r[k] as Schema[] | undefined) ?? []) {
        const p = this.properties(sub);
        if (Object.keys(p).length) return p;
      }
    }
    return {};
  }

  /** The schema with `null` options and wrappers taken off: what a value of it mostly is. */
  core(s: Schema): Schema {
    const r = this.resolve(s);
    for (const k of ["anyOf", "oneOf", "allOf"]) {
      const subs = ((r[k] as Schema[] | undefined) ?? []).filter((x) => this.resolve(x).type !== "null");
      if (subs.length) return this.core(subs[0]);
    }
    return r;
  }
}

/** Entity ids the base values put in fields of these names, so a request reaches past the lookups. */
function idFor(name: string, s: Stored): string | undefined {
  const t = s.target;
  const byName: Record<string, string | undefined> = {
    recipeId: t.recipe,
    foodId: t.food,
    unitId: t.unit,
    labelId: t.label,
    shoppingListId: t.list,
    householdId: s.householdId,
    groupId: s.groupId,
    userId: t.user,
    providerId: t.provider,
  };
  return byName[name];
}

/** The URL base bodies carry: a name that never resolves. */
export const FUZZ_URL = "https://fuzz.invalid/x";

const NONE = "0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f";

/**
 * A plausible value for a schema: what a client would send, with ids of stored entities where a field
 * names one and names made unique by `n`, so that variants differ from the base by one hostile value.
 */
export function baseValue(c: Contract, schema: Schema, s: Stored, n: number, name = "", depth = 0): unknown {
  const r = c.core(schema);
  if (r.enum) return (r.enum as unknown[])[0];
  if (r.const !== undefined) return r.const;
  const fmt = r.format as string | undefined;
  switch (r.type) {
    case "string": {
      const id = idFor(name, s);
      if (fmt === "uuid" || fmt === "uuid4") return id ?? NONE;
      if (fmt === "date") return "2026-03-03";
      if (fmt === "date-time") return "2026-03-03T12:00:00";
      if (fmt === "time") return "12:00:00";
      if (fmt === "email" || /email/i.test(name)) return `fuzz${n}@example.com`;
      if (/url/i.test(name)) return FUZZ_URL;
      if (/password/i.test(name)) return `Fuzz-password-${n}`;
      if (/locale|lang/i.test(name)) return "en-US";
      if (/color/i.test(name)) return "#336699";
      return id ?? `fuzz ${n}`;
    }
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return false;
    case "array":
      return depth < 2 ? [baseValue(c, (r.items as Schema) ?? {}, s, n, name, depth + 1)] : [];
    case "object":
    default: {
      const props = c.properties(r);
      if (!Object.keys(props).length) return r.type === "object" ? {} : `fuzz ${n}`;
      const required = new Set((c.resolve(r).required as string[] | undefined) ?? []);
      const out: Record<string, unknown> = {};
      for (const [k, p] of Object.entries(props)) {
        if (required.has(k) || (idFor(k, s) && depth < 3))
          out[k] = depth < 4 ? baseValue(c, p, s, n, k, depth + 1) : null;
      }
      return out;
    }
  }
}

/** The value for a path parameter: the target entity its path names. */
export function pathValue(template: string, param: string, s: Stored): string {
  const t = s.target;
  const before = template.slice(0, template.indexOf(`{${param}}`));
  switch (param) {
    case "slug":
    case "recipe_slug":
      return t.slug;
    case "recipe_id":
      return t.recipe;
    case "id":
      return s.selfId;
    case "provider_id":
      return template.startsWith("/api/admin/debug/") ? t.debugProvider : t.provider;
    case "group_id":
      return s.groupId;
    case "group_slug":
      return s.groupSlug;
    case "user_id":
      return s.selfId;
    case "timeline_event_id":
      return t.event;
    case "file_name":
      return "none.zip";
  }
  const byPrefix: [RegExp, string][] = [
    [/\/admin\/users\/$/, t.user],
    [/\/users\/$/, t.user],
    [/\/admin\/households\/$/, t.household],
    [/\/admin\/groups\/$/, t.group],
    [/cookbooks\/$/, t.cookbook],
    [/notifications\/$/, t.notifier],
    [/recipe-actions\/$/, t.action],
    [/shopping\/lists\/$/, t.list],
    [/shopping\/items\/$/, t.item],
    [/webhooks\/$/, t.webhook],
    [/mealplans\/rules\/$/, t.rule],
    [/mealplans\/$/, t.plan],
    [/labels\/$/, t.label],
    [/timeline\/events\/$/, t.event],
    [/categories\/$/, t.category],
    [/tags\/$/, t.tag],
    [/tools\/$/, t.tool],
    [/comments\/$/, t.comment],
    [/foods\/$/, t.food],
    [/units\/$/, t.unit],
  ];
  return byPrefix.find(([re]) => re.test(before))?.[1] ?? NONE;
}

export function pathParams(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
}

/** The path with every parameter filled by its target, except `override`'s, which are sent as given. */
export function fillPath(template: string, s: Stored, override: Record<string, string> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, p: string) =>
    p in override ? override[p] : encodeURIComponent(pathValue(template, p, s)),
  );
}
