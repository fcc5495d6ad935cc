/**
 * POST /api/groups/migrations (mealie-api-notes §12): the archive streams to the data folder's temp
 * area under a size cap, `larder.migrations` reads it and answers with the group report; the upload is
 * removed once the migration has finished, in the foreground or in the background.
 */
import { rm } from "node:fs/promises";
import { route } from "../router.js";
import { streamMultipartToFile } from "../multipart-upload.js";
import { ValidationError } from "../../../core/errors.js";

const truthy = (v: string | undefined) => /^(1|true|yes|on)$/i.test((v ?? "").trim());

export const migrationRoutes = [
  route("POST", "/api/groups/migrations", "user", async (ctx) => {
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
      const missing = [
        ...(upload.fields.migration_type
          ? []
          : [{ loc: ["body", "migration_type"], msg: "Field required", type: "missing" }]),
        ...(upload.file ? [] : [{ loc: ["body", "archive"], msg: "Field required", type: "missing" }]),
      ];
      if (missing.length) throw new ValidationError(missing);
      const { report } = await larder.migrations.start(ctx.actor, {
        type: upload.fields.migration_type,
        path: upload.file!.path,
        addMigrationTag: truthy(upload.fields.add_migration_tag),
        onFinished: cleanup,
      });
      return report;
    } catch (e) {
      await cleanup();
      throw e;
    }
  }),
];
