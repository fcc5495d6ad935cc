/**
 * Every built-in notifier against a local stand-in for its service: what arrives (method, path, headers,
 * body) is what the service's API expects. Loopback is allowed only through the fetch policy, as an
 * admin would allow a home server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SMTPServer } from "smtp-server";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { LarderError } from "../../core/errors.js";
import { loadConfig } from "../../core/config.js";
import { createGuardedFetcher } from "../../core/net/index.js";
import { AllowList, judgeTarget, parseAddress } from "../../core/net/ip-policy.js";
import { BlockedTargetError } from "../../core/net/errors.js";
import type { Notification, NotifierContext, NotifierPlugin } from "../../core/plugins/kinds.js";
import { PluginInputError } from "../../core/plugins/registry.js";
import { notifiers } from "./index.js";
import { startRecorder, type Recorder } from "../../tests/support/recorder.js";

let rec: Recorder;
let ctx: NotifierContext;
let strictCtx: NotifierContext;
const plugins = notifiers as NotifierPlugin[];
const byScheme = (scheme: string): NotifierPlugin => plugins.find((p) => p.schemes.includes(scheme))!;

const note: Notification = {
  title: "Recipe Created",
  body: "Soup <3 & bread",
  extras: {
    event_type: "recipe_created",
    integration_id: "generic",
    document_data: JSON.stringify({ documentType: "recipe", operation: "create", recipeSlug: "soup" }),
    event_id: "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f",
    timestamp: "2026-11-25T10:00:00.000Z",
  },
};

function contextFor(allow: string[], api: Record<string, string>): NotifierContext {
  const config = loadConfig({} as NodeJS.ProcessEnv, { fetchAllow: allow.join(","), notifyApi: api });
  const list = new AllowList(allow);
  return {
    config,
    log: { info() {}, warn() {}, error() {} },
    fetch: createGuardedFetcher(config),
    async resolveAllowed(host) {
      const ip = parseAddress(host);
      if (!ip || !judgeTarget(host, [ip], list).allowed)
        throw new BlockedTargetError(`smtp://${host}`, "blocked");
      return host;
    },
  };
}

beforeAll(async () => {
  rec = await startRecorder();
  const api = {
    TGRAM: `${rec.url}/tg`,
    DISCORD: `${rec.url}/discord-api`,
    SLACK: `${rec.url}/slack-hooks`,
    NTFY: `${rec.url}/ntfy-cloud`,
  };
  ctx = contextFor(["127.0.0.1"], api);
  strictCtx = contextFor([], api);
});
afterAll(async () => {
  await rec.close();
});

async function sent(scheme: string, url: string, n: Notification = note) {
  const before = rec.requests.length;
  await byScheme(scheme).send(url, n, ctx);
  return rec.requests.slice(before);
}
const json = (body: string) => JSON.parse(body) as Record<string, unknown>;
const host = () => `127.0.0.1:${rec.port}`;

describe("json:// and form://", () => {
  it("json:// POSTs Apprise's payload plus Mealie's event fields, to the path, with basic auth", async () => {
    const [r] = await sent("json", `json://user:pa%20ss@${host()}/hooks/larder`);
    expect(r.method).toBe("POST");
    expect(r.path).toBe("/hooks/larder");
    expect(r.headers["content-type"]).toBe("application/json");
    expect(r.headers.authorization).toBe(`Basic ${Buffer.from("user:pa ss").toString("base64")}`);
    expect(json(r.body)).toEqual({
      version: "1.0",
      title: "Recipe Created",
      message: "Soup <3 & bread",
      attachments: [],
      type: "info",
      ...note.extras,
    });
    expect(JSON.parse(json(r.body).document_data as string)).toEqual({
      documentType: "recipe",
      operation: "create",
      recipeSlug: "soup",
    });
  });

  it("honours Apprise's options: method, +headers, -query parameters, :field renames and removals", async () => {
    const [r] = await sent(
      "json",
      `json://${host()}/x?method=PUT&+X-Api-Key=abc&-room=kitchen&:message=text&:type=&:source=larder`,
    );
    expect(r.method).toBe("PUT");
    expect(r.headers["x-api-key"]).toBe("abc");
    expect(r.query.get("room")).toBe("kitchen");
    const body = json(r.body);
    expect(body.text).toBe("Soup <3 & bread");
    expect(body).not.toHaveProperty("message");
    expect(body).not.toHaveProperty("type");
    expect(body.source).toBe("larder");
  });

  it("refuses a header carrying a line break, even at send time (a hand-edited URL)", async () => {
    const before = rec.requests.length;
    const url = `json://${host()}/x?+X-Note=a%0D%0AX-Injected:%20yes`;
    expect(() => byScheme("json").check!(url, ctx)).toThrow(PluginInputError);
    await expect(byScheme("json").send(url, note, ctx)).rejects.toThrow(PluginInputError);
    expect(rec.requests.length).toBe(before);
  });

  it("form:// sends the same fields form-encoded", async () => {
    const [r] = await sent("form", `form://${host()}/form`);
    expect(r.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    const fields = Object.fromEntries(new URLSearchParams(r.body));
    expect(fields).toEqual({
      version: "1.0",
      title: "Recipe Created",
      message: "Soup <3 & bread",
      type: "info",
      ...note.extras,
    });
  });

  it("jsons:// and forms:// speak https (a plain-http listener cannot answer them)", async () => {
    await expect(byScheme("jsons").send(`jsons://${host()}/x`, note, ctx)).rejects.toThrow();
    expect(byScheme("forms").check!(`forms://example.org:8443/x`, ctx)).toEqual(["https://example.org:8443"]);
  });
});

describe("ntfy://", () => {
  it("publishes JSON to a server of one's own, one request per topic, with priority, tags and a token", async () => {
    const rs = await sent(
      "ntfy",
      `ntfy://tk_abcdef123@${host()}/kitchen/family?priority=high&tags=soup,dinner&click=https://larder.example/r/soup`,
    );
    expect(rs).toHaveLength(2);
    expect(rs.map((r) => r.path)).toEqual(["/", "/"]);
    expect(rs[0].headers.authorization).toBe("Bearer tk_abcdef123");
    expect(json(rs[0].body)).toEqual({
      topic: "kitchen",
      title: "Recipe Created",
      message: "Soup <3 & bread",
      priority: 4,
      tags: ["soup", "dinner"],
      click: "https://larder.example/r/soup",
    });
    expect(json(rs[1].body).topic).toBe("family");
  });

  it("ntfy://topic alone goes to the public server (configurable) and basic auth is passed on", async () => {
    const [cloud] = await sent("ntfy", "ntfy://Larder-Alerts");
    expect(cloud.path).toBe("/ntfy-cloud/");
    expect(json(cloud.body).topic).toBe("Larder-Alerts");
    const [basic] = await sent("ntfy", `ntfy://me:pw@${host()}/t1`);
    expect(basic.headers.authorization).toBe(`Basic ${Buffer.from("me:pw").toString("base64")}`);
  });

  it("refuses a bad priority or topic", () => {
    expect(() => byScheme("ntfy").check!(`ntfy://${host()}/t?priority=loud`, ctx)).toThrow(PluginInputError);
    expect(() => byScheme("ntfy").check!(`ntfy://${host()}/bad%20topic`, ctx)).toThrow(/topic/);
  });
});

describe("gotify://", () => {
  it("POSTs {title, message, priority} to <path>/message with the app token in X-Gotify-Key", async () => {
    const [r] = await sent("gotify", `gotify://${host()}/gotify/AbCdEf.123456?priority=high`);
    expect(r.path).toBe("/gotify/message");
    expect(r.headers["x-gotify-key"]).toBe("AbCdEf.123456");
    expect(json(r.body)).toEqual({ title: "Recipe Created", message: "Soup <3 & bread", priority: 8 });
    const [md] = await sent("gotify", `gotify://${host()}/AbCdEf.123456?format=markdown`);
    expect(md.path).toBe("/message");
    expect(json(md.body)).toMatchObject({
      priority: 5,
      extras: { "client::display": { contentType: "text/markdown" } },
    });
  });

  it("needs a token", () => {
    expect(() => byScheme("gotify").check!(`gotify://${host()}`, ctx)).toThrow(/token/);
  });
});

describe("discord://", () => {
  it("POSTs the message to the webhook endpoint, with the bot name and avatar", async () => {
    const [r] = await sent(
      "discord",
      "discord://Larder@123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz_-0123?avatar_url=https://larder.example/icon.png&thread=42",
    );
    expect(r.path).toBe("/discord-api/webhooks/123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz_-0123");
    expect(r.query.get("thread_id")).toBe("42");
    expect(json(r.body)).toEqual({
      content: "**Recipe Created**\r\nSoup <3 & bread",
      tts: false,
      username: "Larder",
      avatar_url: "https://larder.example/icon.png",
    });
  });

  it("keeps within Discord's 2,000 characters and refuses a malformed webhook", async () => {
    const [r] = await sent("discord", "discord://123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz_-0123", {
      ...note,
      body: "x".repeat(5000),
    });
    expect((json(r.body).content as string).length).toBe(2000);
    expect(() => byScheme("discord").check!("discord://not-a-number/token", ctx)).toThrow(PluginInputError);
  });
});

describe("slack://", () => {
  it("POSTs to the incoming webhook, once per channel", async () => {
    const rs = await sent(
      "slack",
      "slack://Larder@T1JJ3T3L2/A1BRTD4JD/TIiajkdnlazkcOXrIdevi7FQ/#kitchen/family",
    );
    expect(rs.map((r) => r.path)).toEqual([
      "/slack-hooks/T1JJ3T3L2/A1BRTD4JD/TIiajkdnlazkcOXrIdevi7FQ",
      "/slack-hooks/T1JJ3T3L2/A1BRTD4JD/TIiajkdnlazkcOXrIdevi7FQ",
    ]);
    expect(json(rs[0].body)).toEqual({
      text: "*Recipe Created*\nSoup <3 & bread",
      mrkdwn: true,
      username: "Larder",
      channel: "#kitchen",
    });
    expect(json(rs[1].body).channel).toBe("#family");
  });

  it("explains that bot tokens are not supported", () => {
    expect(() => byScheme("slack").check!("slack://xoxb-1234-1234-abc/#general", ctx)).toThrow(/bot tokens/);
  });
});

describe("tgram://", () => {
  it("calls sendMessage of the (configurable) Bot API for each chat, as HTML with the text escaped", async () => {
    const rs = await sent(
      "tgram",
      "tgram://123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/-1001234567/@larder_news?silent=yes",
    );
    expect(rs.map((r) => r.path)).toEqual([
      "/tg/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage",
      "/tg/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage",
    ]);
    expect(json(rs[0].body)).toEqual({
      chat_id: "-1001234567",
      text: "<b>Recipe Created</b>\r\nSoup &lt;3 &amp; bread",
      parse_mode: "HTML",
      disable_notification: true,
      disable_web_page_preview: true,
    });
    expect(json(rs[1].body).chat_id).toBe("@larder_news");
  });

  it("needs a well-formed bot token and a chat", () => {
    expect(() =>
      byScheme("tgram").check!("tgram://123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw", ctx),
    ).toThrow(/chat id/);
    expect(() => byScheme("tgram").check!("tgram://nonsense/123", ctx)).toThrow(/bot token/);
  });
});

describe("mailto://", () => {
  it("delivers through a real SMTP server, with login, sender and recipients from the URL", async () => {
    const inbox: Array<{ from: string; to: string[]; user: string | undefined; raw: string }> = [];
    const server = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onAuth(auth, _session, cb) {
        if (auth.username === "cook" && auth.password === "s3cret") cb(null, { user: auth.username });
        else cb(new Error("Invalid username or password"));
      },
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
          inbox.push({
            from,
            to: session.envelope.rcptTo.map((r) => r.address),
            user: session.user as string | undefined,
            raw: Buffer.concat(chunks).toString("utf8"),
          });
          cb();
        });
      },
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const port = (server.server.address() as AddressInfo).port;
    try {
      await byScheme("mailto").send(
        `mailto://cook:s3cret@larder.example:${port}/ann@example.org?smtp=127.0.0.1&to=bob@example.org&name=Kitchen`,
        note,
        ctx,
      );
      expect(inbox.map((m) => [m.from, m.to, m.user])).toEqual([
        ["cook@larder.example", ["ann@example.org"], "cook"],
        ["cook@larder.example", ["bob@example.org"], "cook"],
      ]);
      expect(inbox[0].raw).toMatch(/^Subject: Recipe Created/m);
      expect(inbox[0].raw).toMatch(/^From: Kitchen <cook@larder\.example>/m);
      expect(inbox[0].raw).toContain("Soup <3 & bread");
      // Without the allow-list, the SMTP server on loopback is never contacted.
      await expect(
        byScheme("mailto").send(
          `mailto://cook:s3cret@larder.example:${port}?smtp=127.0.0.1`,
          note,
          strictCtx,
        ),
      ).rejects.toThrow(BlockedTargetError);
      expect(inbox).toHaveLength(2);
    } finally {
      await new Promise<void>((ok) => server.close(ok));
    }
  });

  it("a server that is down is the service's failure (a LarderError: the plugin stays enabled)", async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createNetServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    await expect(
      byScheme("mailto").send(`mailto://larder.example:${closed}?smtp=127.0.0.1`, note, ctx),
    ).rejects.toBeInstanceOf(LarderError);
  });

  it("reads Apprise's defaults: the domain as server, port by scheme and mode, the sender as recipient", () => {
    const mailto = byScheme("mailto");
    expect(() => mailto.check!("mailto://me:pw@example.org", ctx)).toThrow(/mailtos/);
    expect(mailto.check!("mailto://me@example.org", ctx)).toEqual(["smtp://example.org:25"]);
    expect(mailto.check!("mailtos://me:pw@example.org", ctx)).toEqual(["smtp://example.org:587"]);
    expect(mailto.check!("mailtos://me:pw@example.org?mode=ssl&smtp=smtp.example.net", ctx)).toEqual([
      "smtp://smtp.example.net:465",
    ]);
    expect(() => mailto.check!("mailto://me:pw@example.org/not-an-address", ctx)).toThrow(/e-mail address/);
  });
});

describe("the private-address policy", () => {
  it("every HTTP notifier is refused a loopback target unless it is allowed", async () => {
    const before = rec.requests.length;
    for (const [scheme, url] of [
      ["json", `json://${host()}/x`],
      ["form", `form://${host()}/x`],
      ["ntfy", `ntfy://${host()}/t`],
      ["gotify", `gotify://${host()}/AbCdEf.123456`],
      ["discord", "discord://123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz_-0123"],
      ["slack", "slack://T1JJ3T3L2/A1BRTD4JD/TIiajkdnlazkcOXrIdevi7FQ"],
      ["tgram", "tgram://123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/1"],
    ] as const) {
      await expect(byScheme(scheme).send(url, note, strictCtx), scheme).rejects.toThrow(BlockedTargetError);
    }
    expect(rec.requests.length).toBe(before);
  });
});
