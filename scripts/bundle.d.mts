/** Types of scripts/bundle.mjs, for the tests that import it. */
export declare const KEEP_EARLIER_BUILDS_MS: number;
export declare function pruneEarlierBuilds(
  dir: string,
  current: ReadonlySet<string>,
  maxAgeMs?: number,
  now?: number,
): string[];
export declare function bundle(): Promise<{ ms: number; files: number }>;
