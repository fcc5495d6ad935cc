/**
 * E-mail: messages built safely (no header injection), templates, the flows that send mail
 * (forgotten password, invitations, the admin's test), and delivery over SMTP to a real server
 * (npm `smtp-server`, started on loopback). Without that package the SMTP tests are skipped with a
 * message, except under CI=true, where its absence fails them.
 */
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { body, loginForm, makeUser } from "../support/people.js";
import { SmtpMailer } from "../../core/email/smtp-mailer.js";
import { renderEmail } from "../../core/email/templates.js";
import type { Mailer, MailMessage } from "../../core/email/mailer.js";
import { templatesDir } from "../../core/larder.js";

const EMAIL_TEMPLATES = `${templatesDir()}/email`;

describe("the SMTP mailer's header checks", () => {
  // Port 9 on loopback: nothing is ever sent, the checks run before connecting.
  const mailer = (fromName = "Larder") =>
    new SmtpMailer({
      host: "127.0.0.1",
      port: 9,
      security: "none",
      from: { name: fromName, email: "larder@example.com" },
      timeoutMs: 500,
    });
  const ok: MailMessage = { to: "a@example.com", subject: "Hello", text: "body" };

  it("refuses CR, LF and NUL in every header a user can reach", async () => {
    await expect(mailer().send({ ...ok, to: "a@example.com\r\nBcc: b@example.com" })).rejects.toThrow(
      /line breaks/,
    );
    await expect(mailer().send({ ...ok, to: "a@example.com\nBcc: b@example.com" })).rejects.toThrow(
      /line breaks/,
    );
    await expect(mailer().send({ ...ok, subject: "Hi\r\nBcc: b@example.com" })).rejects.toThrow(
      /line breaks/,
    );
    await expect(mailer().send({ ...ok, subject: "Hi\u0000there" })).rejects.toThrow(/line breaks/);
    await expect(mailer("Evil\r\nBcc: b@example.com").send(ok)).rejects.toThrow(/line breaks/);
  });

  it("refuses anything but one plain address", async () => {
    for (const to of [
      "a@example.com, b@example.com",
      "<a@example.com>",
      "a b@example.com",
      "a@example.com>",
      '"a"@example.com',
      "a@example.com;b@example.com",
    ]) {
      await expect(mailer().send({ ...ok, to }), to).rejects.toThrow(/Invalid e-mail recipient/);
    }
  });

  it("never sends credentials unencrypted to another machine", async () => {
    const remote = new SmtpMailer({
      host: "smtp.example.com",
      port: 25,
      security: "none",
      from: { email: "larder@example.com" },
      user: "u",
      password: "p",
    });
    await expect(remote.send(ok)).rejects.toThrow(/unencrypted/);
  });
});

describe("templates", () => {
  it("renders every template with its subject, text and HTML (values escaped in HTML)", async () => {
    const vars = {
      baseUrl: "https://larder.example",
      fullName: "Ann <Admin>",
      username: "ann",
      link: "https://larder.example/x?a=1&b=2",
      validFor: "one hour",
      inviter: "Ann",
      household: "Family",
      group: "Home",
    };
    for (const name of ["password-reset", "invitation", "test"]) {
      const r = await renderEmail(EMAIL_TEMPLATES, name, vars);
      expect(r.subject.length).toBeGreaterThan(0);
      expect(r.text).not.toMatch(/\{\{/);
      expect(r.html).toBeDefined();
      expect(r.html).not.toMatch(/\{\{/);
    }
    const reset = await renderEmail(EMAIL_TEMPLATES, "password-reset", vars);
    expect(reset.text).toContain("Ann <Admin>");
    expect(reset.html).toContain("Ann &#60;Admin&#62;");
    expect(reset.html).toContain("x?a=1&#38;b=2");
  });

  it("refuses to render a placeholder without a value", async () => {
    await expect(renderEmail(EMAIL_TEMPLATES, "password-reset", { baseUrl: "x" })).rejects.toThrow(
      /has no value/,
    );
    await expect(renderEmail(EMAIL_TEMPLATES, "../secrets", {})).rejects.toThrow(/bad e-mail template name/);
  });
});

/** Keeps what would have been sent. */
class Recorder implements Mailer {
  sent: MailMessage[] = [];
  async send(m: MailMessage): Promise<void> {
    this.sent.push(m);
  }
}

const linkToken = (text: string, path: string) => {
  const m = new RegExp(`${path.replace(/[/?]/g, "\\$&")}\\?token=([A-Za-z0-9_%-]+)`).exec(text);
  if (!m) throw new Error(`no ${path} link in:\n${text}`);
  return decodeURIComponent(m[1]);
};

describe("flows that send e-mail", () => {
  let t: TestServer;
  let admin: string;
  const mail = new Recorder();
  beforeAll(async () => {
    t = await startTestServer({ baseUrl: "https://larder.example" });
    t.larder.email.useMailer(mail);
    admin = await t.login();
  });
  afterAll(async () => t?.close());

  it("answers forgot-password with 200 for anyone, mailing only a real local account", async () => {
    const p = await makeUser(t);
    const ldap = await makeUser(t);
    await t.larder.users.update(ldap.user.id, { authMethod: "LDAP" });
    for (const email of [
      "nobody@example.com",
      "not even an address",
      ldap.user.email,
      p.user.email.toUpperCase(),
    ]) {
      const res = await t.api("/api/users/forgot-password", { method: "POST", json: { email } });
      expect(res.status).toBe(200);
      expect(await res.json()).toBeNull();
    }
    await t.larder.registration.idle();
    expect(mail.sent.map((m) => m.to)).toEqual([p.user.email]);
    const [message] = mail.sent.splice(0);
    const token = linkToken(message.text, "https://larder.example/reset-password/");
    const reset = {
      token,
      email: p.user.email,
      password: "from-the-mail-1",
      passwordConfirm: "from-the-mail-1",
    };
    expect((await t.api("/api/users/reset-password", { method: "POST", json: reset })).status).toBe(200);
    expect((await t.api("/api/auth/token", loginForm(p.user.username, "from-the-mail-1"))).status).toBe(200);
    expect((await t.api("/api/users/reset-password", { method: "POST", json: reset })).status).toBe(400);
  });

  it("mails an invitation link that registers into the household", async () => {
    const inviter = await makeUser(t, { canInvite: true });
    const { token } = await body<{ token: string }>(
      await t.api("/api/households/invitations", { method: "POST", token: inviter.token, json: { uses: 1 } }),
    );
    const res = await t.api("/api/households/invitations/email", {
      method: "POST",
      token: inviter.token,
      json: { email: "friend@example.com", token },
    });
    expect(await body(res)).toEqual({ success: true, error: null });
    const [message] = mail.sent.splice(0);
    expect(message.to).toBe("friend@example.com");
    expect(message.subject).toContain(inviter.user.fullName);
    expect(linkToken(message.text, "https://larder.example/register")).toBe(token);
  });

  it("sends the admin's test message", async () => {
    expect(await body(await t.api("/api/admin/email", { token: admin }))).toEqual({ ready: true });
    expect(
      await body(
        await t.api("/api/admin/email", {
          method: "POST",
          token: admin,
          json: { email: "admin@example.com" },
        }),
      ),
    ).toEqual({ success: true, error: null });
    expect(mail.sent.splice(0).map((m) => m.subject)).toEqual(["Larder test e-mail"]);
  });

  it("refuses header injection in every e-mail field before anything is sent", async () => {
    const injected = "victim@example.com\r\nBcc: everyone@example.com";
    expect(
      (await t.api("/api/admin/email", { method: "POST", token: admin, json: { email: injected } })).status,
    ).toBe(422);
    const inviter = await makeUser(t, { canInvite: true });
    expect(
      (
        await t.api("/api/households/invitations/email", {
          method: "POST",
          token: inviter.token,
          json: { email: injected, token: "x" },
        })
      ).status,
    ).toBe(422);
    expect(
      (await t.api("/api/users/forgot-password", { method: "POST", json: { email: injected } })).status,
    ).toBe(200);
    // A name that ends up in a Subject line cannot carry a line break either.
    const p = await makeUser(t);
    expect(
      (
        await t.api(`/api/users/${p.user.id}`, {
          method: "PUT",
          token: p.token,
          json: { email: p.user.email, fullName: "Eve\r\nBcc: all@example.com" },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await t.api("/api/users/register", {
          method: "POST",
          json: {
            group: "G",
            email: "x@example.com",
            username: "x",
            fullName: "A\nB",
            password: "longenough",
            passwordConfirm: "longenough",
          },
        })
      ).status,
    ).not.toBe(201);
    await t.larder.registration.idle();
    expect(mail.sent).toEqual([]);
  });
});

describe("SMTP delivery failures", () => {
  it("reports a server that is down as success false with the reason", async () => {
    const probe = createServer();
    await new Promise<void>((ok) => probe.listen(0, "127.0.0.1", ok));
    const port = (probe.address() as { port: number }).port;
    await new Promise((ok) => probe.close(ok));
    const t = await startTestServer({
      smtp: {
        HOST: "127.0.0.1",
        PORT: String(port),
        FROM_EMAIL: "larder@example.com",
        AUTH_STRATEGY: "NONE",
      },
    });
    try {
      const admin = await t.login();
      const res = await body<{ success: boolean; error: string }>(
        await t.api("/api/admin/email", { method: "POST", token: admin, json: { email: "a@example.com" } }),
      );
      expect(res.success).toBe(false);
      expect(res.error).toMatch(
        new RegExp(`^SMTP delivery through 127\\.0\\.0\\.1:${port} failed: .*ECONNREFUSED`),
      );
    } finally {
      await t.close();
    }
  });
});

// ---- a real SMTP server ----

interface SmtpServerLike {
  listen(port: number, host: string, cb: () => void): void;
  close(cb: () => void): void;
  server: { address(): { port: number } | string | null };
}
type SmtpServerCtor = new (options: Record<string, unknown>) => SmtpServerLike;

async function loadSmtpServer(): Promise<SmtpServerCtor | null> {
  const name = "smtp-server";
  try {
    const mod = (await import(name)) as {
      SMTPServer?: SmtpServerCtor;
      default?: { SMTPServer?: SmtpServerCtor };
    };
    return mod.SMTPServer ?? mod.default?.SMTPServer ?? null;
  } catch {
    return null;
  }
}

const SMTPServer = await loadSmtpServer();
const inCi = process.env.CI === "true";
if (!SMTPServer && !inCi)
  console.warn(
    "tests/api/email.test.ts: npm package smtp-server is not installed; SMTP delivery tests are skipped",
  );
const describeSmtp = SMTPServer || inCi ? describe : describe.skip;

interface Received {
  from: string;
  to: string[];
  user: string | null;
  secure: boolean;
  raw: string;
}

async function startSmtp(
  options: Record<string, unknown>,
): Promise<{ port: number; inbox: Received[]; close(): Promise<void> }> {
  if (!SMTPServer) throw new Error("npm package smtp-server is not installed (required under CI=true)");
  const inbox: Received[] = [];
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    onAuth(
      auth: { username: string; password: string },
      _s: unknown,
      cb: (e: Error | null, r?: { user: string }) => void,
    ) {
      if (auth.username === "mailer" && auth.password === "s3cret") cb(null, { user: auth.username });
      else cb(new Error("Invalid username or password"));
    },
    onData(
      stream: NodeJS.ReadableStream,
      session: {
        envelope: { mailFrom: { address: string }; rcptTo: { address: string }[] };
        user?: string;
        secure: boolean;
      },
      cb: () => void,
    ) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        inbox.push({
          from: session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((r) => r.address),
          user: session.user ?? null,
          secure: session.secure,
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        cb();
      });
    },
    logger: false,
    ...options,
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { port, inbox, close: () => new Promise<void>((ok) => server.close(ok)) };
}

/** The text part of a received message, decoded (base64, quoted-printable or plain). */
function textOf(raw: string): string {
  const m =
    /Content-Type: text\/plain[^\r\n]*\r\n(?:Content-Transfer-Encoding: ([\w-]+)\r\n)?(?:[\w-]+: [^\r\n]*\r\n)*\r\n([\s\S]*?)(?:\r\n--|$)/.exec(
      raw,
    );
  if (!m) throw new Error(`no text part in:\n${raw.slice(0, 500)}`);
  const encoding = (m[1] ?? "7bit").toLowerCase();
  if (encoding === "base64") return Buffer.from(m[2].replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") {
    const bytes = m[2]
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return m[2];
}

describeSmtp("SMTP delivery to a real server (smtp-server)", () => {
  it("authenticates and delivers over a plain loopback connection (SMTP_AUTH_STRATEGY=NONE)", async () => {
    const smtp = await startSmtp({ hideSTARTTLS: true });
    const t = await startTestServer({
      baseUrl: "https://larder.example",
      smtp: {
        HOST: "127.0.0.1",
        PORT: String(smtp.port),
        FROM_EMAIL: "larder@example.com",
        FROM_NAME: "Larder Kitchen",
        USER: "mailer",
        PASSWORD: "s3cret",
        AUTH_STRATEGY: "NONE",
      },
    });
    try {
      const admin = await t.login();
      expect(await body(await t.api("/api/admin/email", { token: admin }))).toEqual({ ready: true });
      expect(
        await body(
          await t.api("/api/admin/email", {
            method: "POST",
            token: admin,
            json: { email: "admin@example.com" },
          }),
        ),
      ).toEqual({ success: true, error: null });
      expect(smtp.inbox).toHaveLength(1);
      expect(smtp.inbox[0]).toMatchObject({
        from: "larder@example.com",
        to: ["admin@example.com"],
        user: "mailer",
      });
      expect(smtp.inbox[0].raw).toMatch(/^Subject: Larder test e-mail$/m);
      expect(smtp.inbox[0].raw).toMatch(/^From: "?Larder Kitchen"? <larder@example\.com>$/m);

      const p = await makeUser(t);
      await t.api("/api/users/forgot-password", { method: "POST", json: { email: p.user.email } });
      await t.larder.registration.idle();
      expect(smtp.inbox).toHaveLength(2);
      const token = linkToken(textOf(smtp.inbox[1].raw), "https://larder.example/reset-password/");
      expect(
        (
          await t.api("/api/users/reset-password", {
            method: "POST",
            json: { token, email: p.user.email, password: "via-smtp-123", passwordConfirm: "via-smtp-123" },
          })
        ).status,
      ).toBe(200);
      expect((await t.api("/api/auth/token", loginForm(p.user.username, "via-smtp-123"))).status).toBe(200);
    } finally {
      await t.close();
      await smtp.close();
    }
  });

  it("upgrades with STARTTLS before authenticating (SMTP_AUTH_STRATEGY=TLS)", async () => {
    const smtp = await startSmtp({});
    const t = await startTestServer({
      smtp: {
        HOST: "127.0.0.1",
        PORT: String(smtp.port),
        FROM_EMAIL: "larder@example.com",
        USER: "mailer",
        PASSWORD: "s3cret",
        AUTH_STRATEGY: "TLS",
        TLS_INSECURE: "true",
      },
    });
    try {
      const admin = await t.login();
      expect(
        await body(
          await t.api("/api/admin/email", {
            method: "POST",
            token: admin,
            json: { email: "admin@example.com" },
          }),
        ),
      ).toEqual({ success: true, error: null });
      expect(smtp.inbox[0]).toMatchObject({ secure: true, user: "mailer" });
    } finally {
      await t.close();
      await smtp.close();
    }
  });

  it("reports refused credentials as success false", async () => {
    const smtp = await startSmtp({ hideSTARTTLS: true });
    const t = await startTestServer({
      smtp: {
        HOST: "127.0.0.1",
        PORT: String(smtp.port),
        FROM_EMAIL: "larder@example.com",
        USER: "mailer",
        PASSWORD: "wrong",
        AUTH_STRATEGY: "NONE",
      },
    });
    try {
      const admin = await t.login();
      const res = await body<{ success: boolean; error: string }>(
        await t.api("/api/admin/email", {
          method: "POST",
          token: admin,
          json: { email: "admin@example.com" },
        }),
      );
      expect(res.success).toBe(false);
      expect(res.error).toMatch(/failed: .*535/);
      expect(smtp.inbox).toHaveLength(0);
    } finally {
      await t.close();
      await smtp.close();
    }
  });
});
