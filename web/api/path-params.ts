/**
 * Path parameters the contract types as a UUID or an integer (web/api/contract-path-params.ts, made
 * from the OpenAPI document by scripts/contract-path-params.ts). A malformed one is a 422 naming the
 * parameter, as FastAPI answers, rather than a 404 that reads as "no such thing".
 */
import { CONTRACT_PATH_PARAMS as rows } from "./contract-path-params.js";
import { Router } from "./router.js";
import type { DetailItem } from "../../core/wire/validation-detail.js";
import { canonicalUuid } from "../../core/util/ids.js";

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const INT = /^[+-]?\d{1,15}$/;

let typed: Router | null = null;
const kinds = new Map<string, Readonly<Record<string, "uuid" | "int">>>();

function table(): Router {
  if (typed) return typed;
  typed = new Router();
  for (const row of rows) {
    const path = row.path.replace(/\{([^}]+)\}/g, ":$1");
    typed.add({ method: row.method, path, auth: "public", handler: () => null });
    kinds.set(`${row.method} ${path}`, row.params);
  }
  return typed;
}

let last: { key: string; match: ReturnType<Router["match"]> } | null = null;

/**
 * The contract route this request names. The handler asks twice in a row for one request (the
 * parameters' problems, then their canonical form), so the last answer is kept.
 */
function contractMatch(method: string, pathname: string): ReturnType<Router["match"]> {
  const key = `${method === "HEAD" ? "GET" : method} ${pathname}`;
  if (last?.key !== key) last = { key, match: table().match(method === "HEAD" ? "GET" : method, pathname) };
  return last.match;
}

/** `/api/foods/:id` and `/api/foods/{item_id}` → `api/foods/*`. */
function shape(path: string): string {
  return path
    .split("/")
    .filter(Boolean)
    .map((s) => (s.startsWith(":") || s.startsWith("{") ? "*" : s))
    .join("/");
}

/**
 * The 422 detail for a request whose typed path parameters are malformed, or null when they are fine.
 * `routePath` is the Larder route that matched: a route the contract does not have (a Larder extra
 * such as `/organizers/tools/empty`) is not judged by the contract's neighbour (`/tools/{item_id}`).
 */
export function pathParamProblems(method: string, pathname: string, routePath: string): DetailItem[] | null {
  const m = contractMatch(method, pathname);
  if (!m || m === "method") return null;
  if (shape(m.route.path) !== shape(routePath)) return null;
  const spec = kinds.get(`${m.route.method} ${m.route.path}`);
  if (!spec) return null;
  const problems: DetailItem[] = [];
  for (const [name, kind] of Object.entries(spec)) {
    const value = m.params[name];
    if (value === undefined) continue;
    if (kind === "uuid" && !UUID.test(value)) {
      problems.push({
        type: "uuid_parsing",
        loc: ["path", name],
        msg: "Input should be a valid UUID",
        input: value,
        ctx: {},
      });
    } else if (kind === "int" && !INT.test(value)) {
      problems.push({
        type: "int_parsing",
        loc: ["path", name],
        msg: "Input should be a valid integer, unable to parse string as an integer",
        input: value,
        ctx: {},
      });
    }
  }
  return problems.length ? problems : null;
}

/**
 * The route's parameters with each one the contract types as a UUID in lower-case hyphenated form, as
 * FastAPI hands Mealie a parsed UUID: a Swift client's upper-case id then finds the same food, tag or
 * user. Larder's parameter names differ from the contract's, so they are paired by position.
 */
export function canonicalPathParams(
  method: string,
  pathname: string,
  routePath: string,
  params: Record<string, string>,
): Record<string, string> {
  const m = contractMatch(method, pathname);
  if (!m || m === "method" || shape(m.route.path) !== shape(routePath)) return params;
  const spec = kinds.get(`${m.route.method} ${m.route.path}`) ?? {};
  const theirs = m.route.path.split("/");
  const ours = routePath.split("/");
  let out = params;
  theirs.forEach((seg, i) => {
    if (!seg.startsWith(":") || spec[seg.slice(1)] !== "uuid" || !ours[i]?.startsWith(":")) return;
    const name = ours[i].slice(1);
    const value = params[name];
    const canonical = value === undefined ? null : canonicalUuid(value);
    if (canonical && canonical !== value) out = { ...out, [name]: canonical };
  });
  return out;
}

/**
 * The contract path this request names when Larder has no route of that shape for it: a fixed path such
 * as `POST /api/recipes/create/image` that would otherwise fall to `/recipes/{slug}/image` and answer a
 * misleading 405 or 422. `routePath` is the Larder route that matched the path (any method), or null.
 */
export function unbuiltContractPath(
  method: string,
  pathname: string,
  routePath: string | null,
): string | null {
  const m = contractMatch(method, pathname);
  if (!m || m === "method") return null;
  if (routePath === null) return m.route.path;
  const contract = shape(m.route.path).split("/");
  const ours = shape(routePath).split("/");
  // Only where the contract is more specific (a literal where Larder has a parameter) does the contract
  // name something Larder lacks; the other way round is a Larder extra, such as /organizers/tools/empty.
  return contract.some((seg, i) => seg !== "*" && ours[i] === "*") ? m.route.path : null;
}
