/**
 * Hostile input against every operation of the Mealie OpenAPI contract that takes a body, query
 * parameters or path parameters (docs/security.md, "Never stops for one request"). Each operation
 * gets a fixed set of hostile requests, seeded by its method and path, so a run replays exactly:
 * malformed, mistyped, deep, huge and prototype-keyed bodies; a hostile value in each field of a
 * plausible body; hostile query strings; path parameters that climb (`..`, `%2e%2e`), hold NUL, are
 * look-alikes or too long; multipart parts with hostile file names; then the same writes sent at once.
 * Every answer must be a 4xx in Mealie's `{"detail": …}` shape or a success, come before the hang
 * bound, and name no stack frame or path of the machine. A write that is accepted must read back, in
 * the contract's shape when its read was in that shape before. Afterwards the server still answers,
 * every file of the data folder still reads, what was stored before and never named by a request reads
 * the same, and nothing was written beside the data folder.
 *
 * `LARDER_FUZZ_ONLY=<regex>` attacks only the matching operations (`PUT /api/foods`) to replay one;
 * `LARDER_FUZZ_DEEP=1` sends every hostile value of its kind to every field (minutes).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertContract, CONTRACT_PATH, hasContract } from "../support/contract.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { storeFixtures, type Stored } from "./support/fixtures.js";
import { Contract, pathParams } from "./support/operations.js";
import { DEEP, JSON_LIMIT } from "./support/variants.js";
import { attack } from "./support/attack.js";

/** Left out: signing out ends the test's own session; a DELETE that works is not hostile input. */
const LEFT_OUT = [/^POST \/api\/auth\/logout$/, /^DELETE /];

const ONLY = process.env.LARDER_FUZZ_ONLY ? new RegExp(process.env.LARDER_FUZZ_ONLY) : null;

let t: TestServer;
let s: Stored;

beforeAll(async () => {
  if (!hasContract) return;
  t = await startTestServer({ maxUploadBytes: 2_000_000, maxJsonBody: JSON_LIMIT });
  s = await storeFixtures(t);
}, 60_000);
afterAll(async () => t?.close());

describe.skipIf(!hasContract)("hostile input against the Mealie contract's operations", () => {
  it(
    "answers every hostile request with a 4xx in Mealie's shape or a success, reads back what it accepts, and loses nothing",
    async () => {
      const contract = new Contract(CONTRACT_PATH);
      const ops = contract
        .operations()
        .filter((o) => o.body || o.query.length || pathParams(o.template).length)
        .filter((o) => !LEFT_OUT.some((re) => re.test(`${o.method} ${o.template}`)))
        .filter((o) => !ONLY || ONLY.test(`${o.method} ${o.template}`));
      const out = await attack({ t, s, contract, ops, validate: assertContract });
      console.log(
        `hostile input: ${ops.length} operations, ${out.sent} requests (${out.spread.join("–")} each)`,
      );
      expect(ops.length).toBeGreaterThan(ONLY ? 0 : 150);
      expect(out.problems.join("\n")).toBe("");
    },
    DEEP ? 3_600_000 : 120_000,
  );
});
