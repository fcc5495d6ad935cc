/**
 * The /api router: a table of `{ method, path, auth, handler }` per Mealie router. Paths use `:name`
 * for a segment parameter. Matching prefers literal segments, so `/recipes/timeline/events` wins over
 * `/recipes/:slug/...` regardless of registration order.
 */
import type { ApiContext } from "./context.js";

export type AuthLevel = "public" | "optional" | "user" | "admin";
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type Handler = (ctx: ApiContext) => Promise<unknown> | unknown;

export interface RouteDef {
  method: Method;
  path: string;
  auth: AuthLevel;
  handler: Handler;
}

interface CompiledRoute extends RouteDef {
  segments: string[];
  score: number;
}

export interface RouteMatch {
  route: RouteDef;
  params: Record<string, string>;
}

export class Router {
  private routes: CompiledRoute[] = [];
  /** The routes by number of segments, each list in matching order: a request looks at its own length only. */
  private byLength = new Map<number, CompiledRoute[]>();

  add(...defs: RouteDef[]): this {
    for (const d of defs) {
      const segments = split(d.path);
      // Literal segments outrank parameters, position by position.
      const score = segments.reduce((acc, s, i) => acc + (s.startsWith(":") ? 0 : 2 ** (20 - i)), 0);
      this.routes.push({ ...d, segments, score });
    }
    this.routes.sort((a, b) => b.score - a.score);
    this.byLength.clear();
    for (const r of this.routes) {
      const same = this.byLength.get(r.segments.length);
      if (same) same.push(r);
      else this.byLength.set(r.segments.length, [r]);
    }
    return this;
  }

  /** The route for method+path, `"method"` when only the method is wrong, or null. */
  match(method: string, path: string): RouteMatch | "method" | null {
    const parts = decodedParts(path);
    if (!parts) return null;
    let pathMatched = false;
    for (const r of this.byLength.get(parts.length) ?? []) {
      if (!fits(r.segments, parts)) continue;
      if (r.method === method || (method === "HEAD" && r.method === "GET"))
        return { route: r, params: paramsOf(r.segments, parts) };
      pathMatched = true;
    }
    return pathMatched ? "method" : null;
  }

  /** The most specific route for this path under any method, or null. */
  routeForPath(path: string): RouteDef | null {
    const parts = decodedParts(path);
    if (!parts) return null;
    return this.byLength.get(parts.length)?.find((r) => fits(r.segments, parts)) ?? null;
  }

  list(): RouteDef[] {
    return [...this.routes];
  }
}

function split(path: string): string[] {
  return path.split("/").filter((s) => s.length > 0);
}

/** The path's segments, percent-decoded; null when one does not decode (no route matches such a path). */
function decodedParts(path: string): string[] | null {
  const parts = split(path);
  for (let i = 0; i < parts.length; i++) {
    try {
      parts[i] = decodeURIComponent(parts[i]);
    } catch {
      return null;
    }
  }
  return parts;
}

/** Whether decoded `parts` fit the pattern: the same length, and every literal segment equal. */
function fits(pattern: string[], parts: string[]): boolean {
  if (pattern.length !== parts.length) return false;
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i];
    if (!p.startsWith(":") && p !== parts[i]) return false;
  }
  return true;
}

function paramsOf(pattern: string[], parts: string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++)
    if (pattern[i].startsWith(":")) params[pattern[i].slice(1)] = parts[i];
  return params;
}

export function route(method: Method, path: string, auth: AuthLevel, handler: Handler): RouteDef {
  return { method, path, auth, handler };
}
