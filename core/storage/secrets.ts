/**
 * Machine secrets in `.larder/secrets.json` (mode 0600), ARCHITECTURE §2: the JWT signing secret is
 * created on first use and lives nowhere else (not in larder.json, not in the environment, not in
 * backups unless asked), so a folder shared through git never shares the key that signs sessions.
 */
import { randomBytes } from "node:crypto";
import { chmod, readFile } from "node:fs/promises";
import { z } from "zod";
import { errnoCode, writeFileAtomic } from "./atomic-write.js";
import { canonicalJson } from "./canonical-json.js";
import { DataFolder, ensurePrivateDirs } from "./data-folder.js";

const MIN_SECRET_BYTES = 32;

const SecretsFile = z.looseObject({
  /** base64url of at least 32 random bytes. */
  jwtSecret: z
    .string()
    .refine((s) => Buffer.from(s, "base64url").length >= MIN_SECRET_BYTES, "must hold at least 32 bytes"),
});

export interface Secrets {
  /** HS256 key for session JWTs. */
  jwtSecret: Uint8Array;
}

/**
 * Read the folder's secrets, creating them on first use. A damaged file is an error, not a reason to
 * mint a new key silently (that would end every session without saying why).
 */
export async function loadSecrets(folder: DataFolder): Promise<Secrets> {
  const file = folder.secretsJson;
  for (let attempt = 0; attempt < 2; attempt++) {
    let text: string | null = null;
    try {
      text = await readFile(file, "utf8");
    } catch (e) {
      if (errnoCode(e) !== "ENOENT") throw e;
    }
    if (text !== null) {
      // Tighten permissions a copy or an unzip may have loosened.
      if (process.platform !== "win32") await chmod(file, 0o600);
      return parseSecrets(file, text);
    }
    await ensurePrivateDirs(folder);
    const fresh = canonicalJson({ jwtSecret: randomBytes(48).toString("base64url") });
    try {
      // Exclusive: if two processes start at once, both end up with the one secret that won.
      await writeFileAtomic(file, fresh, { tmpDir: folder.tmpDir, mode: 0o600, exclusive: true });
      return parseSecrets(file, fresh);
    } catch (e) {
      if (errnoCode(e) !== "EEXIST") throw e;
    }
  }
  throw new Error(`Could not read or create ${file}`);
}

function parseSecrets(file: string, text: string): Secrets {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(
      `${file} is not valid JSON; restore it from a backup, or delete it to sign everyone out and start with a new key`,
    );
  }
  const result = SecretsFile.safeParse(raw);
  if (!result.success)
    throw new Error(`${file} is invalid: ${z.prettifyError(result.error).replace(/\n/g, "; ")}`);
  return { jwtSecret: new Uint8Array(Buffer.from(result.data.jwtSecret, "base64url")) };
}
