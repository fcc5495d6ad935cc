/**
 * /api/admin/backups (mealie-api-notes §10; decisions 0070–0071): list, create, download token, delete,
 * upload, restore — all in core/backups. `POST /api/admin/backups?secrets=true` also carries the
 * per-machine secrets (Larder's own parameter; Mealie's takes none).
 */
import { rm } from "node:fs/promises";
import { ValidationError } from "../../../core/errors.js";
import { streamMultipartToFile } from "../multipart-upload.js";
import { Reply } from "../reply.js";
import { route } from "../router.js";

const truthy = (v: string | null) => /^(1|true|yes|on)$/i.test((v ?? "").trim());

export const adminBackupRoutes = [
  route("GET", "/api/admin/backups", "admin", (ctx) => ctx.larder.backups.list(ctx.actor)),
  route("POST", "/api/admin/backups", "admin", async (ctx) => {
    const { message, error } = await ctx.larder.backups.create(ctx.actor, {
      secrets: truthy(ctx.query.get("secrets")),
    });
    return Reply.created({ message, error });
  }),
  route("POST", "/api/admin/backups/upload", "admin", async (ctx) => {
    const larder = ctx.larder;
    const upload = await streamMultipartToFile(ctx.req, {
      tmpDir: larder.folder.tmpDir,
      field: "archive",
      maxBytes: larder.config.maxMigrationBytes,
      res: ctx.res,
    });
    const cleanup = async () => {
      if (upload.file) await rm(upload.file.path, { force: true });
    };
    try {
      if (!upload.file)
        throw new ValidationError([{ loc: ["body", "archive"], msg: "Field required", type: "missing" }]);
      return await larder.backups.upload(ctx.actor, upload.file.path, cleanup);
    } catch (e) {
      await cleanup();
      throw e;
    }
  }),
  route("GET", "/api/admin/backups/:file_name", "admin", (ctx) =>
    ctx.larder.backups.downloadToken(ctx.actor, ctx.params.file_name),
  ),
  route("DELETE", "/api/admin/backups/:file_name", "admin", (ctx) =>
    ctx.larder.backups.remove(ctx.actor, ctx.params.file_name),
  ),
  route("POST", "/api/admin/backups/:file_name/restore", "admin", (ctx) =>
    ctx.larder.backups.restore(ctx.actor, ctx.params.file_name),
  ),
];
