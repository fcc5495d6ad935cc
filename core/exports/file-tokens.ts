/**
 * Short-lived signed tokens for downloads: a recipe-zip token (`{slug}`, 30 minutes, as Mealie) and a
 * file token naming a prepared file by its path RELATIVE to the data folder. Mealie's file token held
 * an absolute path and its download route opened whatever it named (the arbitrary-file-read fixed in
 * PR #2867); here a file token can only name a regular file inside one of DOWNLOADABLE_DIRS, checked
 * when the token is made and again, with symlinks refused, when it is used.
 *
 * The signing key is derived from the folder's JWT secret with a purpose label, so a session token
 * never verifies as a file token or the other way round, and neither carries the session issuer.
 */
import { createHmac } from "node:crypto";
import path from "node:path";
import { SignJWT, jwtVerify } from "jose";
import { BadRequestError, UnauthorizedError } from "../errors.js";
import type { DataFolder } from "../storage/data-folder.js";
import { loadSecrets } from "../storage/secrets.js";
import { insideRoot } from "../media/safe-path.js";

/** Folders (relative to the data folder) whose files may be handed out by file token. */
export const DOWNLOADABLE_DIRS: readonly string[] = [".larder/exports", ".larder/backups"];
const ISSUER = "larder";
const FILE_AUDIENCE = "larder:file";
const RECIPE_AUDIENCE = "larder:recipe-zip";
const ALG = "HS256";
export const FILE_TOKEN_SECONDS = 30 * 60;
export const RECIPE_TOKEN_SECONDS = 30 * 60;

export interface RecipeZipClaims {
  slug: string;
  group: string;
}

export interface ResolvedFile {
  /** Folder holding the file (absolute). */
  dir: string;
  /** The file's name. */
  name: string;
  /** The path relative to the data folder, as signed. */
  relPath: string;
}

export class FileTokens {
  constructor(
    private readonly root: string,
    private readonly key: Uint8Array,
  ) {}

  /** Tokens keyed from the folder's JWT secret (`.larder/secrets.json`). */
  static async open(folder: DataFolder): Promise<FileTokens> {
    const { jwtSecret } = await loadSecrets(folder);
    return new FileTokens(folder.root, deriveKey(jwtSecret, "file-and-export-tokens"));
  }

  /** A token for a file under DOWNLOADABLE_DIRS; `relPath` uses forward slashes. */
  async signFile(relPath: string, ttlSeconds = FILE_TOKEN_SECONDS): Promise<string> {
    this.check(relPath);
    return new SignJWT({ file: relPath })
      .setProtectedHeader({ alg: ALG, typ: "JWT" })
      .setIssuer(ISSUER)
      .setAudience(FILE_AUDIENCE)
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(this.key);
  }

  /** The file a token names: 401 for a bad or expired token, 400 for a path outside the allowed folders. */
  async resolveFile(token: string): Promise<ResolvedFile> {
    const payload = await this.verify(token, FILE_AUDIENCE);
    const file = payload.file;
    if (typeof file !== "string") throw new UnauthorizedError();
    return this.check(file);
  }

  async signRecipe(claims: RecipeZipClaims, ttlSeconds = RECIPE_TOKEN_SECONDS): Promise<string> {
    return new SignJWT({ slug: claims.slug, group: claims.group })
      .setProtectedHeader({ alg: ALG, typ: "JWT" })
      .setIssuer(ISSUER)
      .setAudience(RECIPE_AUDIENCE)
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(this.key);
  }

  async verifyRecipe(token: string): Promise<RecipeZipClaims> {
    const p = await this.verify(token, RECIPE_AUDIENCE);
    if (typeof p.slug !== "string" || typeof p.group !== "string") throw new UnauthorizedError();
    return { slug: p.slug, group: p.group };
  }

  private async verify(token: string, audience: string): Promise<Record<string, unknown>> {
    if (typeof token !== "string" || token.length === 0 || token.length > 4096) throw new UnauthorizedError();
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALG],
        issuer: ISSUER,
        audience,
        requiredClaims: ["exp"],
      });
      return payload;
    } catch {
      throw new UnauthorizedError();
    }
  }

  /** Syntactic check: relative, no `..`, inside an allowed folder. Symlinks are checked when opening. */
  private check(relPath: string): ResolvedFile {
    const { abs, segments } = insideRoot(this.root, relPath);
    const rel = segments.join("/");
    if (segments.length < 2 || !DOWNLOADABLE_DIRS.some((d) => rel.startsWith(`${d}/`)))
      throw new BadRequestError("Invalid path");
    return { dir: path.dirname(abs), name: path.basename(abs), relPath: rel };
  }
}

/** A key for one purpose, derived from the folder's secret (HMAC-SHA256 as a KDF). */
function deriveKey(secret: Uint8Array, purpose: string): Uint8Array {
  return new Uint8Array(createHmac("sha256", secret).update(`larder:${purpose}`).digest());
}
