/**
 * LDAP sign-in (mealie-api-notes §2 "LDAP"; decision 0010): find the person with the query account
 * (or anonymously), check they match LDAP_USER_FILTER, then prove the password with a bind as their
 * DN. Nothing here touches Larder's users: the caller turns an `ok` outcome into a local account.
 *
 * Every way the directory can fail (refused connection, timeout, TLS, a query bind the server
 * rejects, a base DN that does not exist) becomes LdapUnavailableError, so a login answers a clear
 * 401 instead of a 500 or a hung request.
 */
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import type { ConnectionOptions } from "node:tls";
import type * as Ldapts from "ldapts";
import type { Client, Entry } from "ldapts";
import { loadLdapts } from "../lazy/modules.js";

/** ldapts, loaded by the first LDAP sign-in (a server without LDAP never pays for it). */
let ldap: typeof Ldapts;
import type { Config } from "../config.js";

export interface LdapSettings {
  serverUrl: string;
  baseDn: string;
  queryBind: string | null;
  queryPassword: string;
  userFilter: string | null;
  adminFilter: string | null;
  idAttribute: string;
  mailAttribute: string;
  nameAttribute: string;
  tlsInsecure: boolean;
  caCertFile: string | null;
  startTls: boolean;
  /** Per operation (connect, bind, search); the whole sign-in is capped at three times this. */
  timeoutMs: number;
}

/** A person the directory vouched for. `admin` is null when no LDAP_ADMIN_FILTER is configured. */
export interface LdapPerson {
  dn: string;
  username: string;
  email: string | null;
  fullName: string;
  admin: boolean | null;
}

export type LdapOutcome =
  /** Password proven and the entry matches LDAP_USER_FILTER. */
  | { kind: "ok"; person: LdapPerson }
  /** Unknown, ambiguous or wrong password: a plain "Unauthorized", nothing more is revealed. */
  | { kind: "invalid" }
  /** The password is right but LDAP_USER_FILTER excludes the entry (told only to whoever knows it). */
  | { kind: "not-allowed" };

/** The directory could not be asked. `message` is for the log; users get a fixed sentence. */
export class LdapUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LdapUnavailableError";
  }
}

const TRUE = /^(1|true|yes|on)$/i;
// Attribute descriptions (RFC 4512 §2.5): a name or an OID. Config values are pasted into filters.
const ATTRIBUTE = /^(?:[A-Za-z][A-Za-z0-9-]*|\d+(?:\.\d+)+)$/;

/** LDAP_* settings, or null when LDAP login is off or incomplete (then it is simply not used). */
export function ldapSettings(config: Pick<Config, "ldap">): LdapSettings | null {
  const e = config.ldap;
  const get = (k: string) => (e[k] ?? "").trim() || null;
  if (!TRUE.test(e.AUTH_ENABLED ?? "")) return null;
  const serverUrl = get("SERVER_URL");
  const baseDn = get("BASE_DN");
  if (!serverUrl || !baseDn) return null;
  const attr = (k: string, d: string) => {
    const v = get(k) ?? d;
    if (!ATTRIBUTE.test(v)) throw new Error(`LDAP_${k} is not an attribute name: ${v}`);
    return v;
  };
  const timeout = Number.parseFloat(get("TIMEOUT") ?? "");
  return {
    serverUrl,
    baseDn,
    queryBind: get("QUERY_BIND"),
    queryPassword: e.QUERY_PASSWORD ?? "",
    userFilter: get("USER_FILTER"),
    adminFilter: get("ADMIN_FILTER"),
    idAttribute: attr("ID_ATTRIBUTE", "uid"),
    mailAttribute: attr("MAIL_ATTRIBUTE", "mail"),
    nameAttribute: attr("NAME_ATTRIBUTE", "name"),
    tlsInsecure: TRUE.test(e.TLS_INSECURE ?? ""),
    caCertFile: get("TLS_CACERTFILE"),
    startTls: TRUE.test(e.ENABLE_STARTTLS ?? ""),
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? Math.round(timeout * 1000) : 10_000,
  };
}

/**
 * RFC 4515 §3 escaping of an assertion value: `*`, `(`, `)`, `\` and NUL become `\2a` etc., so
 * what a user types is always one literal value and can never add wildcards or filter terms.
 */
export function escapeFilterValue(value: string): string {
  return value.replace(/[\\*()\u0000]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

function wrap(filter: string): string {
  const f = filter.trim();
  return f.startsWith("(") ? f : `(${f})`;
}

/**
 * `(&(|(uid=<input>)(mail=<input>))<LDAP_USER_FILTER>)`. Like Mealie, the user filter may use
 * `{id_attribute}`, `{mail_attribute}` and `{input}`; `{input}` is escaped there too.
 */
export function buildUserFilter(
  s: Pick<LdapSettings, "idAttribute" | "mailAttribute" | "userFilter">,
  input: string,
): string {
  const v = escapeFilterValue(input.trim());
  const extra = s.userFilter
    ? wrap(
        s.userFilter.replace(/\{(id_attribute|mail_attribute|input)\}/g, (_, k: string) =>
          k === "input" ? v : k === "id_attribute" ? s.idAttribute : s.mailAttribute,
        ),
      )
    : "";
  return `(&(|(${s.idAttribute}=${v})(${s.mailAttribute}=${v}))${extra})`;
}

function tlsOptions(s: LdapSettings): ConnectionOptions {
  const host = new URL(s.serverUrl).hostname.replace(/^\[|\]$/g, "");
  const o: ConnectionOptions = { host };
  // SNI must be a name; for an IP literal the certificate is still checked against the address.
  if (!isIP(host)) o.servername = host;
  if (s.tlsInsecure) o.rejectUnauthorized = false;
  if (s.caCertFile) {
    try {
      o.ca = readFileSync(s.caCertFile);
    } catch (e) {
      throw new LdapUnavailableError(
        `cannot read LDAP_TLS_CACERTFILE ${s.caCertFile}: ${(e as Error).message}`,
      );
    }
  }
  return o;
}

/** First value of an attribute, matched case-insensitively (servers answer with their own spelling). */
function first(entry: Entry, attr: string): string | null {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attr.toLowerCase());
  const raw = key === undefined ? undefined : entry[key];
  const v = Array.isArray(raw) ? raw[0] : raw;
  if (v === undefined) return null;
  const s = (Buffer.isBuffer(v) ? v.toString("utf8") : v).trim();
  return s || null;
}

function describe(e: unknown): string {
  if (e instanceof ldap.ResultCodeError) return `${e.message} (code ${e.code})`;
  return e instanceof Error ? e.message : String(e);
}

/** Run one directory step; anything but the failures the caller expects means "unavailable". */
async function step<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof LdapUnavailableError) throw e;
    throw new LdapUnavailableError(`${what} failed: ${describe(e)}`);
  }
}

/** Bind as `dn`; false for wrong credentials, LdapUnavailableError for anything else. */
async function bindAs(client: Client, dn: string, password: string): Promise<boolean> {
  try {
    await client.bind(dn, password);
    return true;
  } catch (e) {
    if (e instanceof ldap.InvalidCredentialsError) return false;
    throw new LdapUnavailableError(`bind as ${dn} failed: ${describe(e)}`);
  }
}

async function findPeople(client: Client, s: LdapSettings, filter: string): Promise<Entry[] | "many"> {
  const attributes = [...new Set([s.idAttribute, s.mailAttribute, s.nameAttribute, "cn", "displayName"])];
  try {
    // Two is enough to know the match is not unique; the server stops there.
    const { searchEntries } = await client.search(s.baseDn, {
      scope: "sub",
      filter,
      attributes,
      sizeLimit: 2,
    });
    return searchEntries.length > 1 ? "many" : searchEntries;
  } catch (e) {
    if (e instanceof ldap.SizeLimitExceededError) return "many";
    if (e instanceof ldap.NoSuchObjectError)
      throw new LdapUnavailableError(`LDAP_BASE_DN ${s.baseDn} does not exist`);
    throw new LdapUnavailableError(`search under ${s.baseDn} failed: ${describe(e)}`);
  }
}

/** Whether the entry itself matches `filter` (a base-scope search on its DN, as Mealie does). */
async function entryMatches(client: Client, dn: string, filter: string): Promise<boolean> {
  return step("LDAP_ADMIN_FILTER check", async () => {
    const { searchEntries } = await client.search(dn, {
      scope: "base",
      filter: wrap(filter),
      attributes: ["1.1"],
    });
    return searchEntries.length > 0;
  });
}

function personOf(s: LdapSettings, entry: Entry, login: string, admin: boolean | null): LdapPerson {
  const username = first(entry, s.idAttribute) ?? login.trim();
  // The default name attribute, `name`, is a supertype: servers answer with cn/sn instead.
  const fullName =
    first(entry, s.nameAttribute) ?? first(entry, "cn") ?? first(entry, "displayName") ?? username;
  return { dn: entry.dn, username, email: first(entry, s.mailAttribute), fullName, admin };
}

async function authenticate(
  client: Client,
  s: LdapSettings,
  login: string,
  password: string,
): Promise<LdapOutcome> {
  if (s.startTls) await step("STARTTLS", () => client.startTLS(tlsOptions(s)));
  if (s.queryBind) {
    const queryBind = s.queryBind;
    const ok = await step("query bind", () => bindAs(client, queryBind, s.queryPassword));
    if (!ok) throw new LdapUnavailableError("the server refused LDAP_QUERY_BIND / LDAP_QUERY_PASSWORD");
  }
  const found = await findPeople(client, s, buildUserFilter(s, login));
  if (found === "many") return { kind: "invalid" };
  if (found.length === 0) {
    if (!s.userFilter) return { kind: "invalid" };
    // Tell "not in an allowed group" apart from "unknown", but only to someone who has the password.
    const anyone = await findPeople(client, s, buildUserFilter({ ...s, userFilter: null }, login));
    if (anyone === "many" || anyone.length !== 1) return { kind: "invalid" };
    return (await bindAs(client, anyone[0].dn, password)) ? { kind: "not-allowed" } : { kind: "invalid" };
  }
  const entry = found[0];
  // Checked with the query identity, before the user's bind replaces it: users often cannot read
  // their own group memberships.
  const admin = s.adminFilter ? await entryMatches(client, entry.dn, s.adminFilter) : null;
  if (!(await bindAs(client, entry.dn, password))) return { kind: "invalid" };
  return { kind: "ok", person: personOf(s, entry, login, admin) };
}

/**
 * Sign `login` (uid or mail) in with `password`. Throws LdapUnavailableError when the directory
 * cannot answer within the timeouts.
 */
export async function ldapAuthenticate(
  s: LdapSettings,
  login: string,
  password: string,
): Promise<LdapOutcome> {
  // An empty password makes a simple bind "unauthenticated", which many servers accept (RFC 4513 §5.1.2).
  if (!login.trim() || !password) return { kind: "invalid" };
  const secure = s.serverUrl.toLowerCase().startsWith("ldaps:");
  ldap = await loadLdapts();
  const client = new ldap.Client({
    url: s.serverUrl,
    timeout: s.timeoutMs,
    connectTimeout: s.timeoutMs,
    ...(secure ? { tlsOptions: tlsOptions(s) } : {}),
  });
  let timer: NodeJS.Timeout | undefined;
  // ldapts times out each operation; this caps the whole exchange in case a step slips through.
  const overall = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new LdapUnavailableError(`no answer within ${(3 * s.timeoutMs) / 1000} s`)),
      3 * s.timeoutMs,
    );
  });
  try {
    return await Promise.race([authenticate(client, s, login, password), overall]);
  } finally {
    clearTimeout(timer);
    await Promise.race([client.unbind().catch(() => {}), new Promise((r) => setTimeout(r, 1000).unref())]);
  }
}
