/**
 * A real OpenLDAP slapd for the LDAP login tests: its own slapd.conf and mdb database in a temp dir,
 * seeded with slapadd, listening on a free loopback port, killed afterwards. Nothing under /etc is
 * touched and no root port is used, so it runs the same on a laptop and in CI (stack.md "LDAP").
 *
 * Directory: dc=example,dc=test with ou=people (alice, bob, carol), ou=groups (cooks: alice, bob;
 * admins: alice) and a read-only service account cn=reader. The memberof overlay keeps `memberOf`
 * on the people, because that is what real deployments filter on (LDAP_USER_FILTER/ADMIN_FILTER).
 * slapadd bypasses overlays, so the groups are added over the protocol once slapd is up.
 */
import { spawn, execFile, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "ldapts";

const run = promisify(execFile);

const SLAPD = "/usr/sbin/slapd";
const SLAPADD = "/usr/sbin/slapadd";
const SLAPPASSWD = "/usr/sbin/slappasswd";
const OPENSSL = "/usr/bin/openssl";
const SCHEMA_DIR = "/etc/ldap/schema";
const MODULE_DIR = "/usr/lib/ldap";

export const BASE_DN = "dc=example,dc=test";
export const ROOT_DN = `cn=admin,${BASE_DN}`;
export const ROOT_PASSWORD = "root-secret";
export const READER_DN = `cn=reader,${BASE_DN}`;
export const READER_PASSWORD = "reader-secret";
export const COOKS_DN = `cn=cooks,ou=groups,${BASE_DN}`;
export const ADMINS_DN = `cn=admins,ou=groups,${BASE_DN}`;

export interface SeedUser {
  uid: string;
  password: string;
  cn: string;
  mail: string;
}
export const LDAP_USERS = {
  alice: { uid: "alice", password: "alice-pass-1", cn: "Alice Admin", mail: "alice@example.test" },
  bob: { uid: "bob", password: "bob-pass-22", cn: "Bob Cook", mail: "bob@example.test" },
  carol: { uid: "carol", password: "carol-pass-333", cn: "Carol Outsider", mail: "carol@example.test" },
} satisfies Record<string, SeedUser>;

export const userDn = (uid: string) => `uid=${uid},ou=people,${BASE_DN}`;

/** Whether this machine can run the tests' own slapd (Debian packages slapd + ldap-utils). */
export function slapdAvailable(): boolean {
  return (
    [SLAPD, SLAPADD, SLAPPASSWD].every((p) => existsSync(p)) &&
    existsSync(join(SCHEMA_DIR, "inetorgperson.schema"))
  );
}

export interface RunningSlapd {
  url: string;
  port: number;
  /** The CA that signed slapd's certificate (for 127.0.0.1), or null without openssl: no STARTTLS then. */
  caFile: string | null;
  /** The same server over ldaps:// (TLS from the first byte), when there is a certificate. */
  ldapsUrl: string | null;
  /** A client bound as the root DN, for tests that change the directory (e.g. group membership). */
  admin(): Promise<Client>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function hash(password: string): Promise<string> {
  const { stdout } = await run(SLAPPASSWD, ["-h", "{SSHA}", "-s", password]);
  return stdout.trim();
}

/** A throwaway CA and a server certificate for 127.0.0.1, so STARTTLS can be tested for real. */
async function makeCertificates(dir: string): Promise<boolean> {
  if (!existsSync(OPENSSL)) return false;
  const f = (n: string) => join(dir, n);
  await writeFile(
    f("server.ext"),
    "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
  );
  const days = ["-days", "2"];
  await run(OPENSSL, [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    f("ca.key"),
    "-out",
    f("ca.crt"),
    ...days,
    "-subj",
    "/CN=Larder test CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  await run(OPENSSL, [
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    f("server.key"),
    "-out",
    f("server.csr"),
    "-subj",
    "/CN=127.0.0.1",
  ]);
  await run(OPENSSL, [
    "x509",
    "-req",
    "-in",
    f("server.csr"),
    "-CA",
    f("ca.crt"),
    "-CAkey",
    f("ca.key"),
    "-CAcreateserial",
    "-out",
    f("server.crt"),
    ...days,
    "-extfile",
    f("server.ext"),
  ]);
  return true;
}

function slapdConf(dir: string, tls: boolean): string {
  const schemas = ["core", "cosine", "nis", "inetorgperson"].map(
    (s) => `include ${join(SCHEMA_DIR, `${s}.schema`)}`,
  );
  const tlsLines = tls
    ? [
        `TLSCACertificateFile ${join(dir, "ca.crt")}`,
        `TLSCertificateFile ${join(dir, "server.crt")}`,
        `TLSCertificateKeyFile ${join(dir, "server.key")}`,
      ]
    : [];
  return [
    ...schemas,
    ...tlsLines,
    `pidfile ${join(dir, "slapd.pid")}`,
    `argsfile ${join(dir, "slapd.args")}`,
    `modulepath ${MODULE_DIR}`,
    "moduleload back_mdb",
    "moduleload memberof",
    "database mdb",
    `suffix "${BASE_DN}"`,
    `rootdn "${ROOT_DN}"`,
    "rootpw __ROOTPW__",
    `directory ${join(dir, "db")}`,
    "maxsize 10485760",
    "overlay memberof",
    "memberof-group-oc groupOfNames",
    "memberof-member-ad member",
    "memberof-memberof-ad memberOf",
    "memberof-refint TRUE",
    // Passwords are only ever compared by a bind; everything else is readable, so both the
    // service-account and the anonymous search modes of LARDER's LDAP login can be exercised.
    "access to attrs=userPassword by self write by anonymous auth by * none",
    "access to * by * read",
    "",
  ].join("\n");
}

async function seedLdif(): Promise<string> {
  const people = await Promise.all(
    Object.values(LDAP_USERS).map(
      async (u) => `dn: ${userDn(u.uid)}
objectClass: inetOrgPerson
uid: ${u.uid}
cn: ${u.cn}
sn: ${u.cn.split(" ").pop()}
mail: ${u.mail}
userPassword: ${await hash(u.password)}
`,
    ),
  );
  return [
    `dn: ${BASE_DN}
objectClass: dcObject
objectClass: organization
dc: example
o: Example
`,
    `dn: ou=people,${BASE_DN}
objectClass: organizationalUnit
ou: people
`,
    `dn: ou=groups,${BASE_DN}
objectClass: organizationalUnit
ou: groups
`,
    `dn: ${READER_DN}
objectClass: organizationalRole
objectClass: simpleSecurityObject
cn: reader
userPassword: ${await hash(READER_PASSWORD)}
`,
    ...people,
  ].join("\n");
}

/** Wait until slapd answers a root bind, or fail with what it printed if it died first. */
async function waitForBind(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  let lastError: unknown = null;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`slapd exited with ${child.exitCode}:\n${log()}`);
    const client = new Client({ url, connectTimeout: 500, timeout: 1000 });
    try {
      await client.bind(ROOT_DN, ROOT_PASSWORD);
      return;
    } catch (e) {
      lastError = e;
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.unbind().catch(() => {});
    }
  }
  throw new Error(`slapd did not accept binds on ${url}: ${String(lastError)}\n${log()}`);
}

export async function startSlapd(): Promise<RunningSlapd> {
  const dir = await mkdtemp(join(tmpdir(), "larder-slapd-"));
  await mkdir(join(dir, "db"));
  const conf = join(dir, "slapd.conf");
  const tls = await makeCertificates(dir);
  await writeFile(conf, slapdConf(dir, tls).replace("__ROOTPW__", await hash(ROOT_PASSWORD)));
  await writeFile(join(dir, "seed.ldif"), await seedLdif());
  try {
    await run(SLAPADD, ["-f", conf, "-l", join(dir, "seed.ldif")]);
  } catch (e) {
    const err = e as { stderr?: string };
    throw new Error(`slapadd failed: ${err.stderr ?? String(e)}`);
  }

  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const ldapsUrl = tls ? `ldaps://127.0.0.1:${await freePort()}` : null;
  const listen = ldapsUrl ? `${url}/ ${ldapsUrl}/` : `${url}/`;
  const child = spawn(SLAPD, ["-d", "0", "-f", conf, "-h", listen], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (b: Buffer) => (output += b.toString()));
  child.stderr?.on("data", (b: Buffer) => (output += b.toString()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };

  const admin = async () => {
    const client = new Client({ url, connectTimeout: 2000, timeout: 5000 });
    await client.bind(ROOT_DN, ROOT_PASSWORD);
    return client;
  };

  try {
    await waitForBind(url, child, () => output);
    const c = await admin();
    try {
      await c.add(COOKS_DN, {
        objectClass: "groupOfNames",
        cn: "cooks",
        member: [userDn("alice"), userDn("bob")],
      });
      await c.add(ADMINS_DN, { objectClass: "groupOfNames", cn: "admins", member: [userDn("alice")] });
    } finally {
      await c.unbind();
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, port, caFile: tls ? join(dir, "ca.crt") : null, ldapsUrl, admin, stop };
}
