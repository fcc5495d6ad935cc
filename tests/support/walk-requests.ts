/**
 * The realistic request for each operation of the Mealie contract, for tests/api/every-operation.test.ts:
 * path parameters filled with entities the walk made first, and the body a Mealie client would send.
 * An operation missing here still gets walked, with a minimal body built from its request schema.
 */

/** Ids and names of the entities the walk made before walking. */
export type Made = Record<string, string>;

/** A multipart field: a string, or a file with its name and type. */
export type Part = string | { data: Buffer; name: string; type: string };

export interface WalkRequest {
  /** The path, parameters filled. */
  url?: string;
  query?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  multipart?: Record<string, Part | Part[]>;
  /** Sent with this token instead of the admin's (a user whose password the walk changes, say). */
  token?: "spare" | "logout" | null;
}

/** What a body builder may read: the made entities, and GET on the server (a PUT starts from what GET gives). */
export interface WalkContext {
  made: Made;
  files: { jpeg: Buffer; zip: Buffer; backup: Buffer; migration: Buffer };
  get(path: string): Promise<Record<string, unknown>>;
}

type Build = (c: WalkContext) => WalkRequest | Promise<WalkRequest>;

const H = "/api/households";
const jpeg = (c: WalkContext, name = "photo.jpg"): Part => ({ data: c.files.jpeg, name, type: "image/jpeg" });

/** The fixture site's pages (a recipe, a photo) and its hooks, on loopback. */
export const site = (c: WalkContext, path: string) => `${c.made.site}${path}`;

export const REQUESTS: Record<string, Build> = {
  "POST /api/auth/token": () => ({
    form: { username: "changeme@example.com", password: "MyPassword" },
    token: null,
  }),
  "POST /api/auth/logout": () => ({ token: "logout" }),
  "POST /api/users/register": (c) => ({
    token: null,
    json: {
      groupToken: c.made.inviteToken,
      email: "registered@example.com",
      username: "registered",
      fullName: "Registered Walker",
      password: "Registered-Pass-42",
      passwordConfirm: "Registered-Pass-42",
      advanced: false,
      private: false,
      seedData: false,
      locale: "en-US",
    },
  }),
  "PUT /api/users/password": () => ({
    token: "spare",
    json: { currentPassword: "Spare-Walker-42", newPassword: "Spare-Walker-43" },
  }),
  "PUT /api/users/{item_id}": async (c) => ({
    json: { ...(await c.get("/api/users/self")), fullName: "Walk Admin" },
  }),
  "POST /api/users/forgot-password": () => ({ token: null, json: { email: "changeme@example.com" } }),
  "POST /api/users/reset-password": (c) => ({
    token: null,
    json: {
      token: c.made.resetToken,
      email: "doomed@example.com",
      password: "Doomed-Walker-44",
      passwordConfirm: "Doomed-Walker-44",
    },
  }),
  "POST /api/users/{id}/image": (c) => ({ multipart: { profile: jpeg(c, "me.jpg") } }),
  "POST /api/users/api-tokens": () => ({ json: { name: "Walk token two" } }),
  "POST /api/users/{id}/ratings/{slug}": () => ({ json: { rating: 4, isFavorite: true } }),

  "POST /api/households/cookbooks": () => ({
    json: { name: "Walk Shelf", description: "", public: true, queryFilterString: "" },
  }),
  "PUT /api/households/cookbooks": async (c) => ({
    json: [{ ...(await c.get(`${H}/cookbooks/${c.made.cookbook}`)), position: 2 }],
  }),
  "PUT /api/households/cookbooks/{item_id}": async (c) => ({
    json: { ...(await c.get(`${H}/cookbooks/${c.made.cookbook}`)), description: "Soups first" },
  }),
  "POST /api/households/events/notifications": (c) => ({
    json: { name: "Walk hook two", appriseUrl: c.made.appriseUrl },
  }),
  "PUT /api/households/events/notifications/{item_id}": async (c) => ({
    json: { ...(await c.get(`${H}/events/notifications/${c.made.notifier}`)), name: "Walk notifier renamed" },
  }),
  "POST /api/households/recipe-actions": (c) => ({
    json: { actionType: "post", title: "Walk action two", url: site(c, "/hook") },
  }),
  "PUT /api/households/recipe-actions/{item_id}": async (c) => ({
    json: { ...(await c.get(`${H}/recipe-actions/${c.made.action}`)), title: "Walk action renamed" },
  }),
  "POST /api/households/recipe-actions/{item_id}/trigger/{recipe_slug}": () => ({
    json: { recipe_scale: 2 },
  }),
  "PUT /api/households/preferences": async (c) => ({
    json: { ...(await c.get(`${H}/preferences`)), recipeShowNutrition: true },
  }),
  "PUT /api/households/permissions": (c) => ({
    json: {
      userId: c.made.spareUser,
      canManageHousehold: false,
      canManage: false,
      canInvite: true,
      canOrganize: true,
    },
  }),
  "POST /api/households/invitations": () => ({ json: { uses: 2 } }),
  "POST /api/households/invitations/email": (c) => ({
    json: { email: "friend@example.com", token: c.made.inviteToken },
  }),
  "POST /api/households/shopping/lists": () => ({ json: { name: "Walk list two" } }),
  "PUT /api/households/shopping/lists/{item_id}": async (c) => ({
    json: { ...(await c.get(`${H}/shopping/lists/${c.made.list}`)), name: "Walk list renamed" },
  }),
  "PUT /api/households/shopping/lists/{item_id}/label-settings": async (c) => {
    const list = await c.get(`${H}/shopping/lists/${c.made.list}`);
    const settings = list.labelSettings as Array<Record<string, unknown>>;
    return { json: settings.map((s, i) => ({ ...s, position: settings.length - i })) };
  },
  "POST /api/households/shopping/lists/{item_id}/recipe": (c) => ({
    json: [{ recipeId: c.made.recipeId, recipeIncrementQuantity: 1 }],
  }),
  "POST /api/households/shopping/lists/{item_id}/recipe/{recipe_id}": () => ({
    json: { recipeIncrementQuantity: 1 },
  }),
  "POST /api/households/shopping/lists/{item_id}/recipe/{recipe_id}/delete": () => ({
    json: { recipeDecrementQuantity: 1 },
  }),
  "POST /api/households/shopping/items": (c) => ({
    json: { shoppingListId: c.made.list, note: "walk napkins", quantity: 1, checked: false },
  }),
  "PUT /api/households/shopping/items": async (c) => ({
    json: [{ ...(await c.get(`${H}/shopping/items/${c.made.item}`)), quantity: 3 }],
  }),
  "DELETE /api/households/shopping/items": (c) => ({ query: { ids: c.made.item2 } }),
  "POST /api/households/shopping/items/create-bulk": (c) => ({
    json: [
      { shoppingListId: c.made.list, note: "walk lemons", quantity: 2 },
      { shoppingListId: c.made.list, foodId: c.made.food, unitId: c.made.unit, quantity: 1 },
    ],
  }),
  "PUT /api/households/shopping/items/{item_id}": async (c) => ({
    json: { ...(await c.get(`${H}/shopping/items/${c.made.item}`)), checked: true },
  }),
  "POST /api/households/webhooks": (c) => ({
    json: {
      enabled: true,
      name: "Walk webhook two",
      url: site(c, "/hook"),
      webhookType: "mealplan",
      scheduledTime: "09:30",
    },
  }),
  "PUT /api/households/webhooks/{item_id}": async (c) => ({
    json: { ...(await c.get(`${H}/webhooks/${c.made.webhook}`)), name: "Walk webhook renamed" },
  }),
  "POST /api/households/mealplans/rules": (c) => ({
    json: { day: "monday", entryType: "lunch", queryFilterString: `tags.id IN ["${c.made.tag}"]` },
  }),
  "PUT /api/households/mealplans/rules/{item_id}": async (c) => ({
    json: { ...(await c.get(`${H}/mealplans/rules/${c.made.rule}`)), day: "sunday" },
  }),
  "GET /api/households/mealplans": () => ({ query: { start_date: "2031-06-01", end_date: "2031-06-07" } }),
  "POST /api/households/mealplans": (c) => ({
    json: { date: "2031-06-02", entryType: "lunch", recipeId: c.made.recipeId, title: "", text: "" },
  }),
  "POST /api/households/mealplans/random": () => ({ json: { date: "2031-06-03", entryType: "dinner" } }),
  "PUT /api/households/mealplans/{item_id}": async (c) => ({
    json: { ...(await c.get(`${H}/mealplans/${c.made.entry}`)), entryType: "side" },
  }),

  "POST /api/groups/ai-providers/providers": (c) => ({
    json: {
      name: "Walk model two",
      baseUrl: site(c, "/v1"),
      apiKey: "sk-walk",
      model: "walk-model",
      timeout: 10,
    },
  }),
  "PUT /api/groups/ai-providers/providers/{provider_id}": async (c) => ({
    json: { ...(await c.get(`/api/groups/ai-providers/providers/${c.made.provider}`)), timeout: 20 },
  }),
  "PUT /api/groups/ai-providers/settings": (c) => ({
    json: { defaultProviderId: c.made.provider2, audioProviderId: null, imageProviderId: c.made.provider2 },
  }),
  "PUT /api/groups/preferences": () => ({ json: { privateGroup: false, showAnnouncements: true } }),
  "POST /api/groups/migrations": (c) => ({
    multipart: {
      migration_type: "nextcloud",
      add_migration_tag: "false",
      archive: { data: c.files.migration, name: "nextcloud.zip", type: "application/zip" },
    },
  }),
  "POST /api/groups/labels": () => ({ json: { name: "Walk Dairy", color: "#00AAFF" } }),
  "PUT /api/groups/labels/{item_id}": async (c) => ({
    json: { ...(await c.get(`/api/groups/labels/${c.made.label}`)), color: "#AA00FF" },
  }),
  "POST /api/groups/seeders/foods": () => ({ json: { locale: "en-US" } }),
  "POST /api/groups/seeders/labels": () => ({ json: { locale: "en-US" } }),
  "POST /api/groups/seeders/units": () => ({ json: { locale: "en-US" } }),

  "DELETE /api/recipes/{slug}": (c) => ({ url: `/api/recipes/${c.made.doomedSlug}` }),
  "GET /api/recipes/{slug}/exports": () => ({ query: { template_name: "recipes.md" } }),
  "POST /api/recipes/test-scrape-url": (c) => ({ json: { url: site(c, "/recipe.html"), useOpenAI: false } }),
  "POST /api/recipes/create/html-or-json": () => ({
    json: {
      includeTags: false,
      data: JSON.stringify({
        "@context": "https://schema.org",
        "@type": "Recipe",
        name: "Walk Pasted Salad",
        recipeIngredient: ["1 cucumber"],
        recipeInstructions: ["Slice."],
      }),
    },
  }),
  "POST /api/recipes/create/html-or-json/stream": () => ({
    json: {
      data: JSON.stringify({
        "@context": "https://schema.org",
        "@type": "Recipe",
        name: "Walk Streamed Salad",
      }),
    },
  }),
  "POST /api/recipes/create/url": (c) => ({ json: { url: site(c, "/recipe.html"), includeTags: true } }),
  "POST /api/recipes/create/url/stream": (c) => ({ json: { url: site(c, "/recipe.html?again=1") } }),
  "POST /api/recipes/create/url/bulk": (c) => ({
    json: { imports: [{ url: site(c, "/recipe.html?bulk=1"), categories: [], tags: [] }] },
  }),
  "POST /api/recipes/create/zip": (c) => ({
    multipart: { archive: { data: c.files.zip, name: "recipe.zip", type: "application/zip" } },
  }),
  "POST /api/recipes/create/image": (c) => ({ multipart: { images: [jpeg(c)] } }),
  "POST /api/recipes": () => ({ json: { name: "Walk Fresh Recipe" } }),
  "PUT /api/recipes": async (c) => ({
    json: [{ ...(await c.get(`/api/recipes/${c.made.slug}`)), description: "Bulk put" }],
  }),
  "PATCH /api/recipes": (c) => ({
    json: [{ id: c.made.recipeId, slug: c.made.slug, description: "Bulk patched" }],
  }),
  "PUT /api/recipes/{slug}": async (c) => ({
    json: { ...(await c.get(`/api/recipes/${c.made.slug}`)), recipeYield: "4 bowls" },
  }),
  "PATCH /api/recipes/{slug}": () => ({ json: { description: "A warming soup." } }),
  "POST /api/recipes/{slug}/duplicate": () => ({ json: { name: "Walk Soup Copy" } }),
  "PATCH /api/recipes/{slug}/last-made": () => ({ json: { timestamp: "2031-06-01T18:30:00Z" } }),
  "POST /api/recipes/{slug}/image": (c) => ({ json: { url: site(c, "/photo.jpg"), includeTags: false } }),
  "PUT /api/recipes/{slug}/image": (c) => ({ multipart: { image: jpeg(c), extension: "jpg" } }),
  "POST /api/recipes/{slug}/assets": () => ({
    multipart: {
      name: "Walk card",
      icon: "mdi-file",
      extension: "txt",
      file: { data: Buffer.from("a card\n"), name: "card.txt", type: "text/plain" },
    },
  }),
  "POST /api/recipes/bulk-actions/tag": async (c) => ({
    json: { recipes: [c.made.slug], tags: [await c.get(`/api/organizers/tags/${c.made.tag}`)] },
  }),
  "POST /api/recipes/bulk-actions/settings": (c) => ({
    json: {
      recipes: [c.made.slug],
      settings: {
        public: true,
        showNutrition: true,
        showAssets: true,
        landscapeView: false,
        disableComments: false,
        locked: false,
      },
    },
  }),
  "POST /api/recipes/bulk-actions/categorize": async (c) => ({
    json: {
      recipes: [c.made.slug],
      categories: [await c.get(`/api/organizers/categories/${c.made.category}`)],
    },
  }),
  "POST /api/recipes/bulk-actions/delete": (c) => ({ json: { recipes: [c.made.bulkDeleteSlug] } }),
  "POST /api/recipes/bulk-actions/export": (c) => ({ json: { recipes: [c.made.slug], exportType: "json" } }),
  "POST /api/recipes/timeline/events": (c) => ({
    json: {
      recipeId: c.made.recipeId,
      subject: "Walk made it again",
      eventType: "comment",
      eventMessage: "Better with lemon",
      timestamp: "2031-06-02T19:00:00Z",
    },
  }),
  "PUT /api/recipes/timeline/events/{item_id}": () => ({
    json: { subject: "Walk made it", eventMessage: "With lemon" },
  }),
  "PUT /api/recipes/timeline/events/{item_id}/image": (c) => ({
    multipart: { image: jpeg(c), extension: "jpg" },
  }),
  "POST /api/organizers/categories": () => ({ json: { name: "Walk Starters" } }),
  "PUT /api/organizers/categories/{item_id}": () => ({ json: { name: "Walk Soups" } }),
  "POST /api/organizers/tags": () => ({ json: { name: "Walk Spicy" } }),
  "PUT /api/organizers/tags/{item_id}": () => ({ json: { name: "Walk Warming" } }),
  "POST /api/organizers/tools": () => ({ json: { name: "Walk Whisk", householdsWithTool: [] } }),
  "PUT /api/organizers/tools/{item_id}": () => ({ json: { name: "Walk Big Pot", householdsWithTool: [] } }),
  "POST /api/shared/recipes": (c) => ({
    json: { recipeId: c.made.recipeId, expiresAt: "2032-01-01T00:00:00Z" },
  }),
  "POST /api/comments": (c) => ({ json: { recipeId: c.made.recipeId, text: "Walk: lovely." } }),
  "PUT /api/comments/{item_id}": (c) => ({ json: { id: c.made.comment, text: "Walk: lovely, truly." } }),
  "POST /api/parser/ingredient": () => ({ json: { parser: "nlp", ingredient: "2 cups chopped onion" } }),
  "POST /api/parser/ingredients": () => ({
    json: { parser: "brute", ingredients: ["1 tbsp olive oil", "3 cloves garlic, minced"] },
  }),
  "POST /api/foods": (c) => ({
    json: { name: "walk parsnip", pluralName: "walk parsnips", labelId: c.made.label },
  }),
  "PUT /api/foods/merge": (c) => ({ json: { fromFood: c.made.food2, toFood: c.made.food } }),
  "PUT /api/foods/{item_id}": async (c) => ({
    json: { ...(await c.get(`/api/foods/${c.made.food}`)), description: "Root vegetable" },
  }),
  "POST /api/units": () => ({ json: { name: "walk pinch", abbreviation: "wpn", fraction: true } }),
  "PUT /api/units/merge": (c) => ({ json: { fromUnit: c.made.unit2, toUnit: c.made.unit } }),
  "PUT /api/units/{item_id}": async (c) => ({
    json: { ...(await c.get(`/api/units/${c.made.unit}`)), description: "A small measure" },
  }),

  "POST /api/admin/users": () => ({
    json: {
      username: "walk-created",
      fullName: "Walk Created",
      email: "walk-created@example.com",
      password: "Walk-Created-42",
      admin: false,
      group: "Home",
      household: "Family",
    },
  }),
  "POST /api/admin/users/unlock": () => ({ query: { force: "false" } }),
  "PUT /api/admin/users/{item_id}": async (c) => ({
    json: { ...(await c.get(`/api/admin/users/${c.made.doomedUser}`)), fullName: "Doomed Walker" },
  }),
  "POST /api/admin/users/password-reset-token": () => ({ json: { email: "spare@example.com" } }),
  "POST /api/admin/households": (c) => ({ json: { name: "Walk Cabin", groupId: c.made.groupId } }),
  "PUT /api/admin/households/{item_id}": async (c) => ({
    json: { ...(await c.get(`/api/admin/households/${c.made.doomedHousehold}`)), name: "Walk Shed" },
  }),
  "POST /api/admin/groups": () => ({ json: { name: "Walk Club" } }),
  "PUT /api/admin/groups/{item_id}": async (c) => ({
    json: { ...(await c.get(`/api/admin/groups/${c.made.doomedGroup}`)), name: "Walk Society" },
  }),
  "POST /api/admin/groups/{group_id}/ai-providers/providers": (c) => ({
    json: { name: "Walk admin model", baseUrl: site(c, "/v1"), apiKey: "sk-admin", model: "walk-model" },
  }),
  "PUT /api/admin/groups/{group_id}/ai-providers/providers/{provider_id}": async (c) => ({
    json: { ...(await c.get(`/api/groups/ai-providers/providers/${c.made.provider2}`)), timeout: 15 },
  }),
  "POST /api/admin/email": () => ({ json: { email: "walker@example.com" } }),
  "POST /api/admin/backups/upload": (c) => ({
    multipart: { archive: { data: c.files.backup, name: "walk-upload.zip", type: "application/zip" } },
  }),
  "DELETE /api/admin/backups/{file_name}": async (c) => {
    // The uploaded one: the backup the walk made is restored last.
    const all = (await c.get("/api/admin/backups")).imports as Array<{ name: string }>;
    return { url: `/api/admin/backups/${all.find((b) => b.name !== c.made.backup)!.name}` };
  },
  "POST /api/admin/debug/openai/{provider_id}": (c) => ({ multipart: { image: jpeg(c) } }),
  "GET /api/utils/download": (c) => ({ query: { token: c.made.fileToken } }),
};

/** The value a path parameter takes in this path: the entity the walk made for it. */
export function fillPath(path: string, m: Made): string {
  const under = (prefix: string) => path.startsWith(prefix);
  const pick = (name: string): string => {
    switch (name) {
      case "slug":
      case "recipe_slug":
        return m.slug;
      case "recipe_id":
        return m.recipeId;
      case "tag_slug":
        return m.tagSlug;
      case "category_slug":
        return m.categorySlug;
      case "tool_slug":
        return m.toolSlug;
      case "household_slug":
        return m.householdSlug;
      case "group_slug":
        return m.groupSlug;
      case "group_id":
        return m.groupId;
      case "user_id":
        return m.userId;
      case "username_or_id":
        return m.username;
      case "provider_id":
        return under("/api/admin/groups/") ? m.provider2 : m.provider;
      case "export_id":
        return m.export;
      case "file_name":
        if (under("/api/admin/backups")) return m.backup;
        if (path.includes("/assets/")) return m.assetFile;
        if (path.includes("/images/timeline/")) return "original.webp";
        return under("/api/media/users") ? "profile.webp" : "original.webp";
      case "timeline_event_id":
        return m.event;
      case "token_id":
        return under("/api/users/api-tokens") ? m.apiToken : m.share;
      case "id":
        return m.userId;
      case "item_id":
        return itemId(path, m);
    }
    throw new Error(`no value for {${name}} in ${path}`);
  };
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pick(name)));
}

const ITEMS: Array<[string, string]> = [
  ["/api/households/cookbooks", "cookbook"],
  ["/api/households/events/notifications", "notifier"],
  ["/api/households/recipe-actions", "action"],
  ["/api/households/shopping/lists", "list"],
  ["/api/households/shopping/items", "item"],
  ["/api/households/webhooks", "webhook"],
  ["/api/households/mealplans/rules", "rule"],
  ["/api/households/mealplans", "entry"],
  ["/api/groups/reports", "report"],
  ["/api/groups/labels", "label"],
  ["/api/recipes/timeline/events", "event"],
  ["/api/organizers/categories", "category"],
  ["/api/organizers/tags", "tag"],
  ["/api/organizers/tools", "tool"],
  ["/api/shared/recipes", "share"],
  ["/api/comments", "comment"],
  ["/api/foods", "food"],
  ["/api/units", "unit"],
  ["/api/users", "userId"],
  ["/api/admin/users", "doomedUser"],
  ["/api/admin/households", "doomedHousehold"],
  ["/api/admin/groups", "doomedGroup"],
  ["/api/explore/groups/{group_slug}/foods", "food"],
  ["/api/explore/groups/{group_slug}/organizers/categories", "category"],
  ["/api/explore/groups/{group_slug}/organizers/tags", "tag"],
  ["/api/explore/groups/{group_slug}/organizers/tools", "tool"],
  ["/api/explore/groups/{group_slug}/cookbooks", "cookbook"],
];

function itemId(path: string, m: Made): string {
  const hit = ITEMS.find(([prefix]) => path.startsWith(prefix + "/"));
  if (!hit) throw new Error(`no entity for {item_id} in ${path}`);
  return m[hit[1]];
}

type Schema = Record<string, unknown>;

/** Entity ids for body fields named after what they point at. */
const ID_FIELDS: Record<string, string> = {
  shoppingListId: "list",
  recipeId: "recipeId",
  labelId: "label",
  foodId: "food",
  unitId: "unit",
  groupId: "groupId",
  householdId: "householdId",
  userId: "userId",
  fromFood: "food2",
  toFood: "food",
  fromUnit: "unit2",
  toUnit: "unit",
  defaultProviderId: "provider",
  audioProviderId: "provider",
  imageProviderId: "provider",
  token: "inviteToken",
};

let serial = 0;

/**
 * The smallest body the request schema allows: required properties only, ids of the walk's entities
 * where a field names one, `id` the path's own entity. Pydantic would take it, so Mealie would too.
 */
export function minimalBody(
  schema: Schema,
  defs: Record<string, unknown>,
  made: Made,
  path: string,
): unknown {
  const ownId = /\{(item_id|provider_id)\}$/.test(path) ? fillPath(path, made).split("/").pop() : undefined;
  const walk = (node: Schema, name: string, depth: number): unknown => {
    if (depth > 8) return null;
    if (typeof node.$ref === "string")
      return walk(defs[node.$ref.split("/").pop()!] as Schema, name, depth + 1);
    if (Array.isArray(node.anyOf)) return walk(node.anyOf[0] as Schema, name, depth + 1);
    if (Array.isArray(node.enum)) return node.enum[0];
    const idOf = name === "id" ? ownId : made[ID_FIELDS[name]];
    switch (node.type) {
      case "object": {
        const out: Record<string, unknown> = {};
        const props = (node.properties ?? {}) as Record<string, Schema>;
        for (const k of (node.required ?? []) as string[]) out[k] = walk(props[k] ?? {}, k, depth + 1);
        return out;
      }
      case "array":
        return [];
      case "integer":
        return idOf !== undefined && /^\d+$/.test(idOf) ? Number(idOf) : 1;
      case "number":
        return 1;
      case "boolean":
        return false;
      case "string":
        if (idOf !== undefined) return idOf;
        if (node.format === "date") return "2031-06-05";
        if (node.format === "date-time") return "2031-06-05T12:00:00Z";
        if (node.format === "time" || name === "scheduledTime") return "09:00:00";
        if (name === "email") return `minimal${++serial}@example.com`;
        if (name === "url") return `${made.site}/hook`;
        if (name === "locale") return "en-US";
        return `walk-minimal-${++serial}`;
    }
    return null;
  };
  return walk(schema, "", 0);
}
