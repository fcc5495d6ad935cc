import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { addMember, newRecipe, otherGroup, secondHousehold, type Member } from "../support/members.js";

let t: TestServer;
let token: string;
let b: Member;
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
  b = await addMember(t);
});
afterAll(async () => t?.close());

const comment = (tok: string, recipeId: string, text: string) =>
  t.api("/api/comments", { method: "POST", token: tok, json: { recipeId, text } });

describe("comments", () => {
  it("creates (201), lists on the recipe and in its `comments`, edits and deletes; a deleted one is 404", async () => {
    const { slug, id } = await newRecipe(t, token, "Commented Cake");
    const res = await comment(b.token, id, "Lovely <b>crumb</b>");
    expect(res.status).toBe(201);
    const c = (await res.json()) as {
      id: string;
      recipeId: string;
      text: string;
      userId: string;
      user: { username: string };
    };
    if (hasContract) assertContract("RecipeCommentOut-Output", c);
    expect(c).toMatchObject({ recipeId: id, text: "Lovely <b>crumb</b>", userId: b.user.id });
    expect(c.user.username).toBe(b.user.username);

    const onRecipe = (await (await t.api(`/api/recipes/${slug}/comments`, { token })).json()) as {
      id: string;
    }[];
    expect(onRecipe.map((x) => x.id)).toEqual([c.id]);
    const recipe = (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as {
      comments: { id: string; text: string }[];
    };
    expect(recipe.comments.map((x) => x.text)).toEqual(["Lovely <b>crumb</b>"]);
    if (hasContract) assertContract("Recipe-Output", recipe);

    const put = await t.api(`/api/comments/${c.id}`, {
      method: "PUT",
      token: b.token,
      json: { id: c.id, text: "Lovely crumb, edited" },
    });
    expect(put.status).toBe(200);
    expect(((await put.json()) as { text: string }).text).toBe("Lovely crumb, edited");

    const page = await (await t.api("/api/comments?perPage=-1", { token })).json();
    if (hasContract) assertContract("RecipeCommentPagination", page);

    const del = await t.api(`/api/comments/${c.id}`, { method: "DELETE", token: b.token });
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ message: "Comment deleted", error: false });
    expect((await t.api(`/api/comments/${c.id}`, { token })).status).toBe(404);
  });

  it("lets only the author or an admin edit and delete", async () => {
    const { id } = await newRecipe(t, token, "Guarded Comments");
    const mine = (await (await comment(token, id, "admin says hi")).json()) as { id: string };
    expect(
      (
        await t.api(`/api/comments/${mine.id}`, {
          method: "PUT",
          token: b.token,
          json: { id: mine.id, text: "hijack" },
        })
      ).status,
    ).toBe(403);
    expect((await t.api(`/api/comments/${mine.id}`, { method: "DELETE", token: b.token })).status).toBe(403);
    const theirs = (await (await comment(b.token, id, "b says hi")).json()) as { id: string };
    expect((await t.api(`/api/comments/${theirs.id}`, { method: "DELETE", token })).status).toBe(200);
  });

  it("lets another household comment, and keeps another group out", async () => {
    const h2 = await secondHousehold(t, "Commenters");
    const { id, slug } = await newRecipe(t, token, "Shared Table");
    expect((await comment(h2.token, id, "from next door")).status).toBe(201);
    const other = await otherGroup(t, "Comment Strangers");
    expect((await comment(other.token, id, "intruder")).status).toBe(404);
    const c = (await (await comment(token, id, "private")).json()) as { id: string };
    expect((await t.api(`/api/comments/${c.id}`, { token: other.token })).status).toBe(404);
    expect(
      (
        await t.api(`/api/comments/${c.id}`, {
          method: "PUT",
          token: other.token,
          json: { id: c.id, text: "x" },
        })
      ).status,
    ).toBe(404);
    expect((await t.api(`/api/comments/${c.id}`, { method: "DELETE", token: other.token })).status).toBe(404);
    expect((await t.api(`/api/recipes/${slug}/comments`, { token: other.token })).status).toBe(404);
    const theirList = (await (await t.api("/api/comments?perPage=-1", { token: other.token })).json()) as {
      items: unknown[];
    };
    expect(theirList.items).toEqual([]);
  });

  it("stores comments as append-only JSON Lines per month, edits and deletes as later lines", async () => {
    const { id } = await newRecipe(t, token, "Logged Comments");
    const c = (await (await comment(token, id, "first")).json()) as { id: string };
    await t.api(`/api/comments/${c.id}`, { method: "PUT", token, json: { id: c.id, text: "second" } });
    await t.api(`/api/comments/${c.id}`, { method: "DELETE", token });
    await t.larder.activity.idle();
    const dir = join(t.dataDir, "groups", "home", "activity");
    const files = await readdir(dir);
    expect(files.every((f) => /^\d{4}-\d{2}\.jsonl$/.test(f))).toBe(true);
    const lines = (await Promise.all(files.map((f) => readFile(join(dir, f), "utf8"))))
      .join("")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { kind: string; id?: string });
    expect(lines.filter((l) => l.id === c.id).map((l) => l.kind)).toEqual([
      "comment.created",
      "comment.updated",
      "comment.deleted",
    ]);
  });

  it("validates input: a missing text or a bad recipe id is a 422", async () => {
    const { id } = await newRecipe(t, token, "Picky Comments");
    expect((await t.api("/api/comments", { method: "POST", token, json: { recipeId: id } })).status).toBe(
      422,
    );
    expect((await comment(token, "not-a-uuid", "x")).status).toBe(422);
  });
});
