/** Outbound HTTP for everything in Larder that fetches a user-supplied URL; see docs/decisions/0005-guarded-fetcher.md. */
export {
  DEFAULTS as FETCH_DEFAULTS,
  createGuardedFetcher,
  guardedFetch,
  type FetchPolicy,
  type GuardedFetchOptions,
  type GuardedFetcher,
  type GuardedResponse,
  type GuardedStreamResponse,
  type RequestOptions,
  type ResolvedAddress,
  type Resolver,
} from "./guarded-fetch.js";
export * from "./errors.js";
export { AllowList, blockedRange, judgeTarget, parseAddress, type IpAddress } from "./ip-policy.js";
export { contentTypeMatches } from "./body.js";
