/**
 * A check at save time for URLs Larder will later send to (webhooks, notifiers): a host that is
 * literally a private, loopback or link-local address — or `localhost` — is refused at once, with a
 * message, unless LARDER_FETCH_ALLOW admits it. Names are not resolved here (DNS may be down, or
 * change): the guarded fetcher vets what a name resolves to on every send.
 */
import { AllowList, blockedRange, hostLiteral, normaliseHost } from "./ip-policy.js";

/** Why the host (a WHATWG `URL.hostname`) would be refused, or null when it may be saved. */
export function privateHostProblem(hostname: string, allow: AllowList): string | null {
  const host = normaliseHost(hostname);
  if (!host) return "the URL has no host";
  if (allow.allowsHost(host)) return null;
  if (host === "localhost" || host.endsWith(".localhost")) return `${host} is this machine`;
  // `hostname` as URL gives it: IPv6 in brackets, IPv4 already in dotted-quad form.
  const ip = hostLiteral(hostname.trim().toLowerCase());
  if (!ip || allow.allowsAddress(ip)) return null;
  const range = blockedRange(ip);
  return range ? `${host} is a ${range} address` : null;
}

/** The message a user sees for a refused host (names the setting that would allow it). */
export function privateHostMessage(problem: string): string {
  return `Url is not from an allowed domain: ${problem}; private addresses can be allowed with LARDER_FETCH_ALLOW`;
}
