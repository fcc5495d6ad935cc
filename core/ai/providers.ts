/**
 * AI providers of a group (Mealie v3.19's `/groups/ai-providers`): OpenAI-compatible endpoints with a
 * model, and which of them serves chat (default), audio and images. The providers and the selection are
 * canonical JSON in the group folder (`ai-providers.json`); each API key is a secret in
 * `.larder/ai-provider-keys.json` and is never answered.
 *
 * Image import and the AI parser use the group's selected provider when there is one, and fall back to
 * the administrator's OPENAI_* settings (see `openaiConfigFor`).
 */
import { join } from "node:path";
import { z } from "zod";
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import type { Config } from "../config.js";
import type { GroupData } from "../groups/registry.js";
import { ForbiddenError, NotFoundError } from "../errors.js";
import { DocCache } from "../storage/doc-cache.js";
import { JsonDoc } from "../storage/json-doc.js";
import { newId } from "../util/ids.js";
import { lazySchema } from "../util/lazy-schema.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "config" | "folder" | "groups" | "log">;

const Strings = lazySchema(() => z.record(z.string(), z.string()));

/** AIProviderCreate / AIProviderUpdate of the contract. */
export const AIProviderIn = lazySchema(() =>
  z.object({
    name: z.string(),
    baseUrl: z.string().nullish(),
    apiKey: z.string().default(""),
    model: z.string(),
    timeout: z.number().int().default(300),
    requestHeaders: Strings.default({}),
    requestParams: Strings.default({}),
  }),
);

export const AIProviderSettingsIn = lazySchema(() =>
  z.object({
    defaultProviderId: z.uuid().nullable(),
    audioProviderId: z.uuid().nullable(),
    imageProviderId: z.uuid().nullable(),
  }),
);

const ProviderRecord = lazySchema(() =>
  z
    .object({
      id: z.string(),
      name: z.string(),
      baseUrl: z.string().nullable().default(null),
      model: z.string(),
      timeout: z.number().int().default(300),
      requestHeaders: Strings.default({}),
      requestParams: Strings.default({}),
    })
    .loose(),
);
type ProviderRecord = z.infer<typeof ProviderRecord>;

const ProvidersDoc = lazySchema(() =>
  z
    .object({
      providers: z.array(ProviderRecord).default([]),
      defaultProviderId: z.string().nullable().default(null),
      audioProviderId: z.string().nullable().default(null),
      imageProviderId: z.string().nullable().default(null),
    })
    .loose(),
);
type ProvidersDoc = z.infer<typeof ProvidersDoc>;

const KeysDoc = lazySchema(() => z.object({ keys: z.record(z.string(), z.string()).default({}) }).loose());
type KeysDoc = z.infer<typeof KeysDoc>;

/** AIProviderOut: everything but the key. */
export interface AIProviderOut {
  id: string;
  name: string;
  baseUrl: string | null;
  model: string;
  timeout: number;
  requestHeaders: Record<string, string>;
  requestParams: Record<string, string>;
}

export interface AIProviderSettingsOut {
  defaultProviderId: string | null;
  audioProviderId: string | null;
  imageProviderId: string | null;
  providers: { id: string; name: string }[];
  aiEnabled: boolean;
  audioProviderEnabled: boolean;
  imageProviderEnabled: boolean;
}

const present = (p: ProviderRecord): AIProviderOut => ({
  id: p.id,
  name: p.name,
  baseUrl: p.baseUrl ?? null,
  model: p.model,
  timeout: p.timeout,
  requestHeaders: { ...p.requestHeaders },
  requestParams: { ...p.requestParams },
});

export type AIPurpose = "default" | "image";

export class AIProvidersService {
  private readonly docs: DocCache<ProvidersDoc>;

  private constructor(
    private readonly larder: Deps,
    private readonly keys: JsonDoc<KeysDoc>,
  ) {
    this.docs = new DocCache<ProvidersDoc>({
      schema: ProvidersDoc,
      defaults: () => ProvidersDoc.parse({}),
      tmpDir: larder.folder.tmpDir,
      arraysSortedBy: ["providers"],
      onError: (path, e) => larder.log.error(`could not open ${path}:`, e),
    });
  }

  static async open(larder: Deps): Promise<AIProvidersService> {
    const keys = await JsonDoc.open<KeysDoc>(join(larder.folder.privateDir, "ai-provider-keys.json"), {
      schema: KeysDoc,
      defaults: () => KeysDoc.parse({}),
      tmpDir: larder.folder.tmpDir,
      mode: 0o600,
    });
    return new AIProvidersService(larder, keys);
  }

  private pathOf(group: GroupData): string {
    return join(this.larder.folder.groupDir(group.slug), "ai-providers.json");
  }

  /**
   * The group the call is about: the caller's own (`groupId` absent), or any group for an admin (the
   * `/admin/groups/{group_id}` routes). Changing providers needs `write`: an admin, or a member who may
   * manage the group's settings (canManage), as for the group's other settings.
   */
  private groupFor(actor: Actor, groupId: string | null, write: boolean): GroupData {
    const { user, group } = this.larder.groups.scopeOf(actor);
    if (groupId !== null) {
      if (!user.admin) throw new ForbiddenError("Permission Denied");
      const other = this.larder.groups.byId(groupId);
      if (!other) throw new NotFoundError("Group not found");
      return other;
    }
    if (write && !user.admin && !user.canManage) throw new ForbiddenError("Permission Denied");
    return group;
  }

  private async doc(group: GroupData): Promise<JsonDoc<ProvidersDoc>> {
    return this.docs.get(this.pathOf(group));
  }

  private settingsOf(d: ProvidersDoc): AIProviderSettingsOut {
    const exists = (id: string | null) => id !== null && d.providers.some((p) => p.id === id);
    return {
      defaultProviderId: d.defaultProviderId,
      audioProviderId: d.audioProviderId,
      imageProviderId: d.imageProviderId,
      providers: d.providers.map((p) => ({ id: p.id, name: p.name })),
      aiEnabled: exists(d.defaultProviderId),
      audioProviderEnabled: exists(d.audioProviderId),
      imageProviderEnabled: exists(d.imageProviderId),
    };
  }

  async settings(actor: Actor, groupId: string | null = null): Promise<AIProviderSettingsOut> {
    return this.settingsOf((await this.doc(this.groupFor(actor, groupId, false))).data);
  }

  async updateSettings(
    actor: Actor,
    body: unknown,
    groupId: string | null = null,
  ): Promise<AIProviderSettingsOut> {
    const input = AIProviderSettingsIn.parse(body);
    const doc = await this.doc(this.groupFor(actor, groupId, true));
    for (const id of [input.defaultProviderId, input.audioProviderId, input.imageProviderId]) {
      if (id !== null && !doc.data.providers.some((p) => p.id === id))
        throw new NotFoundError("AI provider not found");
    }
    await doc.update((d) => ({ ...d, ...input }));
    return this.settingsOf(doc.data);
  }

  async get(actor: Actor, providerId: string, groupId: string | null = null): Promise<AIProviderOut> {
    const doc = await this.doc(this.groupFor(actor, groupId, false));
    return present(this.find(doc.data, providerId));
  }

  async create(actor: Actor, body: unknown, groupId: string | null = null): Promise<AIProviderOut> {
    const input = AIProviderIn.parse(body);
    const doc = await this.doc(this.groupFor(actor, groupId, true));
    const { apiKey, ...rest } = input;
    const rec = ProviderRecord.parse({ ...rest, id: newId(), baseUrl: rest.baseUrl ?? null });
    await this.setKey(rec.id, apiKey);
    await doc.update((d) => ({
      ...d,
      providers: [...d.providers, rec],
      // The first provider serves chat until another is chosen, as a group expects after adding one.
      defaultProviderId: d.defaultProviderId ?? rec.id,
    }));
    return present(rec);
  }

  /** An empty `apiKey` keeps the stored key: clients never see it, so they cannot send it back. */
  async update(
    actor: Actor,
    providerId: string,
    body: unknown,
    groupId: string | null = null,
  ): Promise<AIProviderOut> {
    const input = AIProviderIn.parse(body);
    const doc = await this.doc(this.groupFor(actor, groupId, true));
    const old = this.find(doc.data, providerId);
    const { apiKey, ...rest } = input;
    const rec = ProviderRecord.parse({ ...old, ...rest, id: old.id, baseUrl: rest.baseUrl ?? null });
    if (apiKey) await this.setKey(rec.id, apiKey);
    await doc.update((d) => ({ ...d, providers: d.providers.map((p) => (p.id === rec.id ? rec : p)) }));
    return present(rec);
  }

  async remove(actor: Actor, providerId: string, groupId: string | null = null): Promise<AIProviderOut> {
    const doc = await this.doc(this.groupFor(actor, groupId, true));
    const old = this.find(doc.data, providerId);
    const clear = (id: string | null) => (id === old.id ? null : id);
    await doc.update((d) => ({
      ...d,
      providers: d.providers.filter((p) => p.id !== old.id),
      defaultProviderId: clear(d.defaultProviderId),
      audioProviderId: clear(d.audioProviderId),
      imageProviderId: clear(d.imageProviderId),
    }));
    await this.keys.update((k) => {
      const keys = { ...k.keys };
      delete keys[old.id];
      return { ...k, keys };
    });
    return present(old);
  }

  /**
   * The OPENAI_* settings the AI plugins read, for the caller's group: its selected provider for the
   * purpose (images fall back to the default provider) or, when the group has none, the configured
   * OPENAI_* unchanged. A provider's settings carry PROVIDER_ID, which keeps its host under the fetcher's
   * local-network rule (decision 0081). `providerId` picks one provider (the admin debug route).
   */
  async openaiConfigFor(actor: Actor, purpose: AIPurpose, providerId?: string): Promise<Config["openai"]> {
    const base = this.larder.config.openai;
    if (actor.kind !== "user") return base;
    const group = this.larder.groups.byId(actor.user.groupId);
    if (!group) return base;
    const d = (await this.doc(group)).data;
    const id =
      providerId ?? (purpose === "image" ? (d.imageProviderId ?? d.defaultProviderId) : d.defaultProviderId);
    const p = id ? d.providers.find((x) => x.id === id) : undefined;
    if (!p) {
      if (providerId) throw new NotFoundError("AI provider not found");
      return base;
    }
    return {
      // Whether image services are on and how many requests run at once stay the administrator's.
      ...(base.ENABLE_IMAGE_SERVICES !== undefined
        ? { ENABLE_IMAGE_SERVICES: base.ENABLE_IMAGE_SERVICES }
        : {}),
      ...(base.WORKERS !== undefined ? { WORKERS: base.WORKERS } : {}),
      PROVIDER_ID: p.id,
      // Providers without a key (a local model server) still count as configured.
      API_KEY: this.keys.data.keys[p.id] || "none",
      BASE_URL: p.baseUrl ?? "",
      MODEL: p.model,
      REQUEST_TIMEOUT: String(p.timeout),
      CUSTOM_HEADERS: JSON.stringify(p.requestHeaders),
      CUSTOM_PARAMS: JSON.stringify(p.requestParams),
    };
  }

  private find(d: ProvidersDoc, providerId: string): ProviderRecord {
    const p = d.providers.find((x) => x.id === providerId);
    if (!p) throw new NotFoundError("AI provider not found");
    return p;
  }

  private async setKey(id: string, apiKey: string): Promise<void> {
    await this.keys.update((k) => ({ ...k, keys: { ...k.keys, [id]: apiKey } }));
  }
}
