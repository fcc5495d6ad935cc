import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { newRecipe, otherGroup, secondHousehold } from "../support/members.js";

let t: TestServer;
let token: string;
let receiver: Server;
let receiverUrl: string;
const received: { body: Record<string, unknown>; contentType: string | undefined }[] = [];
let arrived: (() => void) | null = null;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>,
        contentType: req.headers["content-type"],
      });
      res.end("ok");
      arrived?.();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  // Loopback is private: only an explicit allow-list entry lets the recipe action reach it.
  t = await startTestServer({ fetchAllow: "127.0.0.1" });
  token = await t.login();
});
afterAll(async () => {
  await t?.close();
  await new Promise((r) => receiver.close(r));
});

type Action = {
  id: string;
  actionType: string;
  title: string;
  url: string;
  groupId: string;
  householdId: string;
};
const create = (json: unknown, tok = token) =>
  t.api("/api/households/recipe-actions", { method: "POST", token: tok, json });

describe("recipe actions", () => {
  it("does CRUD in the contract's shapes", async () => {
    const res = await create({
      actionType: "link",
      title: "Open in planner",
      url: "https://planner.example/r/${slug}",
    });
    expect(res.status).toBe(201);
    const a = (await res.json()) as Action;
    if (hasContract) assertContract("GroupRecipeActionOut", a);
    const page = await (
      await t.api("/api/households/recipe-actions?orderBy=title&orderDirection=asc", { token })
    ).json();
    if (hasContract) assertContract("GroupRecipeActionPagination", page);
    const put = (await (
      await t.api(`/api/households/recipe-actions/${a.id}`, {
        method: "PUT",
        token,
        json: { ...a, title: "Planner" },
      })
    ).json()) as Action;
    expect(put.title).toBe("Planner");
    expect((await t.api(`/api/households/recipe-actions/${a.id}`, { token })).status).toBe(200);
    expect((await t.api(`/api/households/recipe-actions/${a.id}`, { method: "DELETE", token })).status).toBe(
      200,
    );
    expect((await t.api(`/api/households/recipe-actions/${a.id}`, { token })).status).toBe(404);
    expect((await create({ actionType: "email", title: "x", url: "y" })).status).toBe(422);
  });

  it("triggers a post action: 202, then {action, content} with snake_case keys arrives", async () => {
    const { slug, id } = await newRecipe(t, token, "Posted Paella", {
      recipeIngredient: [{ note: "rice" }],
      orgURL: "https://example.org/paella",
    });
    const a = (await (
      await create({ actionType: "post", title: "Send", url: receiverUrl })
    ).json()) as Action;
    const got = new Promise<void>((r) => (arrived = r));
    const res = await t.api(`/api/households/recipe-actions/${a.id}/trigger/${slug}`, {
      method: "POST",
      token,
      json: { recipe_scale: 2 },
    });
    expect(res.status).toBe(202);
    await got;
    const { body, contentType } = received[received.length - 1];
    expect(contentType).toContain("application/json");
    expect(body.action).toMatchObject({
      id: a.id,
      action_type: "post",
      title: "Send",
      group_id: a.groupId,
      household_id: a.householdId,
    });
    const content = body.content as Record<string, unknown>;
    expect(content).toMatchObject({ id, slug, org_url: "https://example.org/paella" });
    expect(content.recipe_ingredient).toBeInstanceOf(Array);
    expect(content.recipeIngredient).toBeUndefined();
    expect(body.recipe_scale).toBe(2);
  });

  it("refuses to trigger a link action (400) and 404s a missing action or recipe", async () => {
    const { slug } = await newRecipe(t, token, "Linked Lasagne");
    const link = (await (
      await create({ actionType: "link", title: "Open", url: "https://example.org" })
    ).json()) as Action;
    expect(
      (await t.api(`/api/households/recipe-actions/${link.id}/trigger/${slug}`, { method: "POST", token }))
        .status,
    ).toBe(400);
    const post = (await (
      await create({ actionType: "post", title: "Send", url: receiverUrl })
    ).json()) as Action;
    expect(
      (
        await t.api(`/api/households/recipe-actions/${post.id}/trigger/no-such-recipe`, {
          method: "POST",
          token,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.api(`/api/households/recipe-actions/3f0c2a8e-6a51-4c1e-9d6b-2f4f3c1a9e10/trigger/${slug}`, {
          method: "POST",
          token,
        })
      ).status,
    ).toBe(404);
  });

  it("keeps other households and groups out (404)", async () => {
    const a = (await (
      await create({ actionType: "post", title: "Ours", url: receiverUrl })
    ).json()) as Action;
    const { slug } = await newRecipe(t, token, "Private Pilaf");
    for (const m of [
      await secondHousehold(t, "Action Neighbours"),
      await otherGroup(t, "Action Strangers"),
    ]) {
      expect((await t.api(`/api/households/recipe-actions/${a.id}`, { token: m.token })).status).toBe(404);
      expect(
        (
          await t.api(`/api/households/recipe-actions/${a.id}`, {
            method: "PUT",
            token: m.token,
            json: { actionType: "post", title: "x", url: "http://x" },
          })
        ).status,
      ).toBe(404);
      expect(
        (await t.api(`/api/households/recipe-actions/${a.id}`, { method: "DELETE", token: m.token })).status,
      ).toBe(404);
      expect(
        (
          await t.api(`/api/households/recipe-actions/${a.id}/trigger/${slug}`, {
            method: "POST",
            token: m.token,
          })
        ).status,
      ).toBe(404);
      const list = (await (await t.api("/api/households/recipe-actions", { token: m.token })).json()) as {
        items: Action[];
      };
      expect(list.items.some((x) => x.id === a.id)).toBe(false);
    }
  });
});

describe("recipe actions without an allow-list", () => {
  it("never reaches a private address: the guarded fetcher refuses it", async () => {
    const strict = await startTestServer();
    try {
      const tok = await strict.login();
      const { slug } = await (async () => {
        const res = await strict.api("/api/recipes", {
          method: "POST",
          token: tok,
          json: { name: "Kept Home" },
        });
        return { slug: (await res.json()) as string };
      })();
      const a = (await (
        await strict.api("/api/households/recipe-actions", {
          method: "POST",
          token: tok,
          json: { actionType: "post", title: "Leak", url: receiverUrl },
        })
      ).json()) as Action;
      const before = received.length;
      const actor = await strict.larder.auth.authenticateToken(tok);
      const { delivery } = strict.larder.recipeActions.trigger(actor!, a.id, slug, {});
      expect(await delivery).toBe(false);
      expect(received.length).toBe(before);
      // The route still answers 202: the refusal happens in the background and is logged.
      expect(
        (
          await strict.api(`/api/households/recipe-actions/${a.id}/trigger/${slug}`, {
            method: "POST",
            token: tok,
          })
        ).status,
      ).toBe(202);
    } finally {
      await strict.close();
    }
  });
});
