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

  add(...defs: RouteDef[]): this {
    for (const d of defs) {
      const segments = split(d.path);
      // Literal segments outrank parameters, position by position.
      const score = segments.reduce((acc, s, i) => acc + (s.startsWith(":") ? 0 : 2 ** (20 - i)), 0);
      this.routes.push({ ...d, segments, score });
    }
    this.routes.sort((a, b) => b.score - a.score);
    return this;
  }

  /** The route for method+path, `"method"` when only the method is wrong, or null. */
  match(method: string, path: string): RouteMatch | "method" | null {
    const parts = split(path);
    let pathMatched = false;
    for (const r of this.routes) {
      const params = matchSegments(r.segments, parts);
      if (!params) continue;
      if (r.method === method || (method === "HEAD" && r.method === "GET")) return { route: r, params };
      pathMatched = true;
    }
    return pathMatched ? "method" : null;
  }

  /** The most specific route for this path under any method, or null. */
  routeForPath(path: string): RouteDef | null {
    const parts = split(path);
    return this.routes.find((r) => matchSegments(r.segments, parts) !== null) ?? null;
  }

  list(): RouteDef[] {
    return [...this.routes];
  }
}

function split(path: string): string[] {
  return path.split("/").filter((s) => s.length > 0);
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i];
    let value: string;
    try {
      value = decodeURIComponent(parts[i]);
    } catch {
      return null;
    }
    if (p.startsWith(":")) params[p.slice(1)] = value;
    else if (p !== value) return null;
  }
  return params;
}

export function route(method: Method, path: string, auth: AuthLevel, handler: Handler): RouteDef {
  return { method, path, auth, handler };
}
