/**
 * A small SMTP client (RFC 5321) over node:net and node:tls: EHLO (HELO as a fallback), STARTTLS or
 * implicit TLS, AUTH PLAIN or LOGIN, MAIL FROM, RCPT TO, DATA with dot-stuffing, QUIT. It sends one
 * message per connection, which is all Larder's few e-mails (reset links, invitations, tests) need.
 *
 * Written because no SMTP library is installed; `Mailer` (mailer.ts) is the seam where nodemailer can
 * replace it. Credentials are never sent over a plain connection to another machine.
 */
import { connect as netConnect, isIP, type Socket } from "node:net";
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from "node:tls";
import { hostname } from "node:os";
import { assertAddress, buildMessage, type MailAddress, type MailMessage } from "./message.js";
import type { Mailer } from "./mailer.js";

export type SmtpSecurity = "starttls" | "tls" | "none";

export interface SmtpOptions {
  host: string;
  port: number;
  security: SmtpSecurity;
  from: MailAddress;
  user?: string;
  password?: string;
  /** Extra TLS settings: a private CA, or (never in production) no certificate check. */
  tls?: Pick<ConnectionOptions, "ca" | "rejectUnauthorized" | "servername">;
  /** Per-step timeout; the whole exchange is bounded by a few of these. */
  timeoutMs?: number;
  /** The name sent with EHLO. */
  clientName?: string;
}

/** A failure while talking to the SMTP server; `code` is the server's reply code when there was one. */
export class SmtpError extends Error {
  constructor(
    message: string,
    readonly code: number | null = null,
  ) {
    super(message);
    this.name = "SmtpError";
  }
}

interface Reply {
  code: number;
  lines: string[];
}

/** Reads SMTP replies (possibly multi-line: "250-a", "250-b", "250 c") from a socket. */
class ReplyReader {
  private buffer = "";
  private lines: string[] = [];
  private waiting: { resolve: (r: Reply) => void; reject: (e: Error) => void } | null = null;
  private ready: Reply[] = [];
  private failure: Error | null = null;

  attach(socket: Socket | TLSSocket): void {
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => this.feed(chunk));
    socket.on("error", (e: Error) => this.fail(new SmtpError(`SMTP connection failed: ${e.message}`)));
    socket.on("close", () => this.fail(new SmtpError("SMTP server closed the connection")));
  }

  /** Move to a new socket (after STARTTLS); nothing may be pending. */
  detach(socket: Socket | TLSSocket): void {
    socket.removeAllListeners("data");
    socket.removeAllListeners("error");
    socket.removeAllListeners("close");
    this.buffer = "";
  }

  private feed(chunk: string): void {
    this.buffer += chunk;
    // A server that never ends a line must not grow memory without bound.
    if (this.buffer.length > 64 * 1024) return this.fail(new SmtpError("SMTP reply too long"));
    let i: number;
    while ((i = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, i).replace(/\r$/, "");
      this.buffer = this.buffer.slice(i + 1);
      const m = /^(\d{3})([ -])(.*)$/.exec(line);
      if (!m) return this.fail(new SmtpError(`Malformed SMTP reply: ${line.slice(0, 80)}`));
      this.lines.push(m[3]);
      if (m[2] === " ") {
        this.push({ code: Number(m[1]), lines: this.lines });
        this.lines = [];
      }
    }
  }

  private push(r: Reply): void {
    const w = this.waiting;
    if (w) {
      this.waiting = null;
      w.resolve(r);
    } else this.ready.push(r);
  }

  private fail(e: Error): void {
    this.failure ??= e;
    const w = this.waiting;
    this.waiting = null;
    w?.reject(this.failure);
  }

  next(): Promise<Reply> {
    const r = this.ready.shift();
    if (r) return Promise.resolve(r);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1"]);

/** Dot-stuffing (RFC 5321 §4.5.2): a line starting with "." gets another one; CRLF line ends. */
export function dotStuff(message: string): string {
  return message.replace(/\r?\n/g, "\r\n").replace(/(^|\r\n)\./g, "$1..");
}

export class SmtpMailer implements Mailer {
  constructor(private readonly options: SmtpOptions) {}

  async send(msg: MailMessage): Promise<void> {
    const o = this.options;
    assertAddress("sender", o.from.email);
    // Built (and its headers checked) before connecting: a refused message never reaches the server.
    const data = buildMessage(o.from, msg);
    const timeoutMs = o.timeoutMs ?? 15_000;
    let socket: Socket | TLSSocket = await this.open(timeoutMs);
    const reader = new ReplyReader();
    reader.attach(socket);
    const write = (line: string) => socket.write(`${line}\r\n`);
    const expect = async (what: string, ...codes: number[]): Promise<Reply> => {
      const r = await reader.next();
      if (!codes.includes(r.code)) throw new SmtpError(`SMTP ${what} refused: ${r.code} ${r.lines.join(" ").slice(0, 200)}`, r.code);
      return r;
    };
    try {
      await expect("greeting", 220);
      let ext = await this.hello(write, expect);
      let encrypted = o.security === "tls";
      if (o.security === "starttls") {
        if (!ext.has("STARTTLS")) throw new SmtpError("SMTP server does not offer STARTTLS (set SMTP_AUTH_STRATEGY=NONE to send without encryption)");
        write("STARTTLS");
        await expect("STARTTLS", 220);
        reader.detach(socket);
        socket = await this.upgrade(socket, timeoutMs);
        reader.attach(socket);
        encrypted = true;
        ext = await this.hello(write, expect);
      }
      if (o.user) {
        if (!encrypted && !LOOPBACK.has(o.host)) throw new SmtpError("Refusing to send SMTP credentials over an unencrypted connection");
        await this.authenticate(ext, write, expect);
      }
      write(`MAIL FROM:<${o.from.email}>`);
      await expect("MAIL FROM", 250);
      write(`RCPT TO:<${msg.to}>`);
      await expect("RCPT TO", 250, 251);
      write("DATA");
      await expect("DATA", 354);
      socket.write(`${dotStuff(data)}${data.endsWith("\r\n") ? "" : "\r\n"}.\r\n`);
      await expect("message", 250);
      write("QUIT");
      await reader.next().catch(() => undefined);
    } finally {
      socket.destroy();
    }
  }

  private async hello(write: (l: string) => void, expect: (what: string, ...codes: number[]) => Promise<Reply>): Promise<Set<string>> {
    const name = this.options.clientName ?? clientName();
    write(`EHLO ${name}`);
    try {
      const r = await expect("EHLO", 250);
      return new Set(r.lines.slice(1).map((l) => l.trim().toUpperCase()).flatMap((l) => [l, l.split(/\s+/)[0]]));
    } catch (e) {
      if (!(e instanceof SmtpError) || e.code === null) throw e;
      write(`HELO ${name}`);
      await expect("HELO", 250);
      return new Set();
    }
  }

  private async authenticate(ext: Set<string>, write: (l: string) => void, expect: (what: string, ...codes: number[]) => Promise<Reply>): Promise<void> {
    const user = this.options.user ?? "";
    const pass = this.options.password ?? "";
    const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
    const methods = [...ext].filter((l) => l.startsWith("AUTH ")).join(" ");
    if (/\bPLAIN\b/.test(methods) || !/\bLOGIN\b/.test(methods)) {
      write(`AUTH PLAIN ${b64(`\u0000${user}\u0000${pass}`)}`);
      await expect("authentication", 235);
      return;
    }
    write("AUTH LOGIN");
    await expect("authentication", 334);
    write(b64(user));
    await expect("authentication", 334);
    write(b64(pass));
    await expect("authentication", 235);
  }

  private open(timeoutMs: number): Promise<Socket | TLSSocket> {
    const o = this.options;
    return new Promise((resolve, reject) => {
      const socket =
        o.security === "tls"
          ? tlsConnect({ host: o.host, port: o.port, servername: isIP(o.host) ? undefined : o.host, ...o.tls })
          : netConnect({ host: o.host, port: o.port });
      const ready = o.security === "tls" ? "secureConnect" : "connect";
      socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      socket.once(ready, () => {
        socket.removeListener("error", onError);
        resolve(socket);
      });
      const onError = (e: Error) => reject(new SmtpError(`Cannot reach the SMTP server ${o.host}:${o.port}: ${e.message}`));
      socket.once("error", onError);
    });
  }

  private upgrade(plain: Socket | TLSSocket, timeoutMs: number): Promise<TLSSocket> {
    const o = this.options;
    return new Promise((resolve, reject) => {
      const secure = tlsConnect({ socket: plain, servername: isIP(o.host) ? undefined : o.host, ...o.tls });
      secure.setTimeout(timeoutMs, () => secure.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      secure.once("secureConnect", () => {
        secure.removeListener("error", onError);
        resolve(secure);
      });
      const onError = (e: Error) => reject(new SmtpError(`STARTTLS failed: ${e.message}`));
      secure.once("error", onError);
    });
  }
}

/** EHLO wants a domain or an address literal; a host name with odd characters gets a safe stand-in. */
function clientName(): string {
  const h = hostname();
  return /^[A-Za-z0-9.-]{1,253}$/.test(h) ? h : "localhost";
}
