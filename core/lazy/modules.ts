/**
 * Libraries that only some requests need, loaded on first use. Each costs a tenth to a fifth of a
 * second to load (sharp opens libvips; nodemailer, archiver and ldapts pull in dozens of files), and a
 * server start should pay for none of them (decision 0007).
 */
import type sharpDefault from "sharp";

type Sharp = typeof sharpDefault;

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | null = null;
  return () => {
    p ??= load().catch((e: unknown) => {
      p = null; // a failed load (e.g. a missing native binary) is retried, not remembered
      throw e;
    });
    return p;
  };
}

export const loadSharp: () => Promise<Sharp> = once(async () => (await import("sharp")).default);
export const loadNodemailer = once(() => import("nodemailer"));
export const loadArchiver = once(() => import("archiver"));
export const loadLdapts = once(() => import("ldapts"));
