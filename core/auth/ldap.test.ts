import { describe, expect, it } from "vitest";
import { buildUserFilter, escapeFilterValue, ldapAuthenticate, ldapSettings } from "./ldap.js";

const base = { AUTH_ENABLED: "true", SERVER_URL: "ldap://ldap.example:389", BASE_DN: "dc=example,dc=test" };

describe("ldapSettings", () => {
  it("is off unless enabled with a server URL and base DN, with Mealie's attribute defaults", () => {
    expect(ldapSettings({ ldap: {} })).toBeNull();
    expect(ldapSettings({ ldap: { ...base, AUTH_ENABLED: "false" } })).toBeNull();
    expect(ldapSettings({ ldap: { ...base, BASE_DN: "" } })).toBeNull();
    expect(ldapSettings({ ldap: base })).toMatchObject({
      idAttribute: "uid",
      mailAttribute: "mail",
      nameAttribute: "name",
      queryBind: null,
      userFilter: null,
      adminFilter: null,
      startTls: false,
      tlsInsecure: false,
      timeoutMs: 10_000,
    });
  });

  it("reads the TLS switches and the timeout, and refuses attribute names that are not names", () => {
    const s = ldapSettings({
      ldap: { ...base, ENABLE_STARTTLS: "1", TLS_INSECURE: "yes", TLS_CACERTFILE: "/ca.pem", TIMEOUT: "2.5" },
    });
    expect(s).toMatchObject({ startTls: true, tlsInsecure: true, caCertFile: "/ca.pem", timeoutMs: 2500 });
    expect(() => ldapSettings({ ldap: { ...base, ID_ATTRIBUTE: "uid)(cn=*" } })).toThrow(/LDAP_ID_ATTRIBUTE/);
  });
});

describe("escapeFilterValue (RFC 4515)", () => {
  it("escapes the five special characters and nothing else", () => {
    expect(escapeFilterValue("*)(uid=*")).toBe("\\2a\\29\\28uid=\\2a");
    expect(escapeFilterValue("a\\b\u0000c")).toBe("a\\5cb\\00c");
    expect(escapeFilterValue("zoë.müller@example.test")).toBe("zoë.müller@example.test");
  });
});

describe("buildUserFilter", () => {
  const s = { idAttribute: "uid", mailAttribute: "mail", userFilter: null };

  it("matches uid or mail, and keeps an injection attempt a single literal value", () => {
    expect(buildUserFilter(s, " alice ")).toBe("(&(|(uid=alice)(mail=alice)))");
    expect(buildUserFilter(s, "*)(uid=*")).toBe(
      "(&(|(uid=\\2a\\29\\28uid=\\2a)(mail=\\2a\\29\\28uid=\\2a)))",
    );
  });

  it("adds LDAP_USER_FILTER, wrapping it in parentheses and filling Mealie's placeholders", () => {
    expect(buildUserFilter({ ...s, userFilter: "memberOf=cn=cooks,dc=x" }, "bob")).toBe(
      "(&(|(uid=bob)(mail=bob))(memberOf=cn=cooks,dc=x))",
    );
    expect(buildUserFilter({ ...s, userFilter: "(|({id_attribute}={input})(cn={input}))" }, "b*")).toBe(
      "(&(|(uid=b\\2a)(mail=b\\2a))(|(uid=b\\2a)(cn=b\\2a)))",
    );
  });
});

describe("ldapAuthenticate", () => {
  it("never binds with an empty password (an unauthenticated bind would succeed)", async () => {
    const s = ldapSettings({ ldap: { ...base, SERVER_URL: "ldap://127.0.0.1:1" } });
    if (!s) throw new Error("settings");
    // No connection is even attempted: port 1 would otherwise make this an "unavailable" error.
    await expect(ldapAuthenticate(s, "alice", "")).resolves.toEqual({ kind: "invalid" });
    await expect(ldapAuthenticate(s, "  ", "pw")).resolves.toEqual({ kind: "invalid" });
  });

  it("reports an unreachable server as LdapUnavailableError", async () => {
    const s = ldapSettings({ ldap: { ...base, SERVER_URL: "ldap://127.0.0.1:1", TIMEOUT: "1" } });
    if (!s) throw new Error("settings");
    await expect(ldapAuthenticate(s, "alice", "pw")).rejects.toMatchObject({ name: "LdapUnavailableError" });
  });
});
