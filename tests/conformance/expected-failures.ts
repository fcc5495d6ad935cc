/**
 * The calls of mealie-typescript that Larder does not answer yet, each with the open issue that builds its
 * capability. The conformance suite fails when a call on this list starts succeeding (remove it here)
 * and when a call that is not on it fails (fix it, or add it here only for another open issue's
 * capability). Keys are `ApiClass.method` as the generated client names them.
 */
export const EXPECTED_FAILURES: Record<string, string> = {};
