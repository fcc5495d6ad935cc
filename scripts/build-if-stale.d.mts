/** Types of scripts/build-if-stale.mjs, for the tests and scripts that import it. */
export declare const BUILD_LOCK: string;
export declare function bundleIsCurrent(): boolean;
export declare function withBuildLock<T>(
  log: (line: string) => void,
  fn: () => T | Promise<T>,
  lock?: string,
): Promise<T>;
export declare function buildIfStale(opts?: {
  ui?: boolean;
  log?: (line: string) => void;
}): Promise<string[]>;
