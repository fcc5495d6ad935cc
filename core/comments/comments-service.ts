/**
 * Recipe comments (mealie-api-notes §4.9), kept in the group's activity log. Any member may comment
 * on any recipe of the group, other households included; only the author or an admin edits or deletes.
 */
import { z } from "zod";
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import type { GroupData } from "../groups/registry.js";
import { ForbiddenError, NotFoundError } from "../errors.js";
import type { ActivityLog } from "../activity/activity-log.js";
import type { CommentRecord } from "../schemas/activity.js";
import type { UserRecord } from "../schemas/records.js";
import { AttributeTable, attr } from "../query/attribute-table.js";
import { listQuery } from "../query/list.js";
import type { ListQuery, Page } from "../query/list-query.js";
import { callerOf, recipeInGroup, userBase } from "../activity/scope.js";
import { isUuid, newId } from "../util/ids.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "groups" | "recipes" | "users">;

const MAX_TEXT = 20_000;
const text = z
  .string()
  .min(1, "This Field is Required")
  .max(MAX_TEXT, `Must Be At Most ${MAX_TEXT} Characters`);
export const CommentCreateIn = z
  .object({ recipeId: z.string().refine(isUuid, "Input should be a valid UUID"), text })
  .loose();
export const CommentUpdateIn = z.object({ id: z.string().nullish(), text }).loose();

/** RecipeCommentOut of the contract. */
export interface CommentOut {
  recipeId: string;
  text: string;
  id: string;
  createdAt: string;
  updatedAt: string;
  userId: string;
  user: ReturnType<typeof userBase>;
}

type C = CommentOut;
export const commentAttributes = new AttributeTable<CommentOut>("comment", {
  id: attr.uuid((c: C) => c.id),
  recipeId: attr.uuid((c: C) => c.recipeId),
  "recipe.id": attr.uuid((c: C) => c.recipeId),
  userId: attr.uuid((c: C) => c.userId),
  "user.id": attr.uuid((c: C) => c.userId),
  "user.username": attr.string((c: C) => c.user.username),
  text: attr.string((c: C) => c.text),
  createdAt: attr.datetime((c: C) => c.createdAt),
  updatedAt: attr.datetime((c: C) => c.updatedAt),
  updateAt: attr.datetime((c: C) => c.updatedAt),
});

export class CommentsService {
  constructor(
    private readonly larder: Deps,
    private readonly log: ActivityLog,
  ) {}

  /** GET /comments: the group's comments, paginated and filterable. */
  list(actor: Actor, query: ListQuery): Page<CommentOut> {
    const { group } = callerOf(this.larder, actor);
    return listQuery(
      this.visible(group).map((c) => this.present(c)),
      query,
      commentAttributes,
    );
  }

  /** The comments of one recipe, oldest first (the recipe's `comments` field). */
  forRecipe(groupSlug: string, recipeId: string): CommentOut[] {
    return this.log
      .state(groupSlug)
      .commentsOf(recipeId)
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))
      .map((c) => this.present(c));
  }

  /** GET /recipes/{slug}/comments. */
  ofRecipe(actor: Actor, slugOrId: string): CommentOut[] {
    const { entry, group } = this.larder.recipes.find(actor, slugOrId);
    return this.forRecipe(group.slug, entry.id);
  }

  get(actor: Actor, id: string): CommentOut {
    const { group } = callerOf(this.larder, actor);
    return this.present(this.record(group, id));
  }

  async create(actor: Actor, input: unknown): Promise<CommentOut> {
    const { user, group } = callerOf(this.larder, actor);
    const body = CommentCreateIn.parse(input ?? {});
    const entry =
      this.larder.recipes.entryById(body.recipeId.toLowerCase()) ??
      this.larder.recipes.entryById(body.recipeId);
    if (!entry || entry.groupSlug !== group.slug) throw new NotFoundError("recipe not found");
    const id = newId();
    await this.log.append(group.slug, {
      kind: "comment.created",
      id,
      recipeId: entry.id,
      userId: user.id,
      text: body.text,
    });
    return this.present(this.record(group, id));
  }

  async update(actor: Actor, id: string, input: unknown): Promise<CommentOut> {
    const { user, group } = callerOf(this.larder, actor);
    const body = CommentUpdateIn.parse(input ?? {});
    const c = this.record(group, id);
    assertAuthorOrAdmin(user, c);
    await this.log.append(group.slug, { kind: "comment.updated", id: c.id, text: body.text });
    return this.present(this.record(group, c.id));
  }

  async remove(actor: Actor, id: string): Promise<{ message: string; error: false }> {
    const { user, group } = callerOf(this.larder, actor);
    const c = this.record(group, id);
    assertAuthorOrAdmin(user, c);
    await this.log.append(group.slug, { kind: "comment.deleted", id: c.id });
    return { message: "Comment deleted", error: false };
  }

  private visible(g: GroupData): CommentRecord[] {
    return [...this.log.state(g.slug).comments.values()].filter((c) =>
      recipeInGroup(this.larder, g, c.recipeId),
    );
  }

  private record(g: GroupData, id: string): CommentRecord {
    const c = isUuid(id) ? this.log.state(g.slug).comments.get(id.toLowerCase()) : undefined;
    if (!c || !recipeInGroup(this.larder, g, c.recipeId)) throw new NotFoundError();
    return c;
  }

  private present(c: CommentRecord): CommentOut {
    return {
      recipeId: c.recipeId,
      text: c.text,
      id: c.id,
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
      userId: c.userId,
      user: userBase(this.larder, c.userId),
    };
  }
}

function assertAuthorOrAdmin(user: UserRecord, c: { userId: string }): void {
  if (c.userId !== user.id && !user.admin) throw new ForbiddenError("Comment does not belong to user");
}
