/** The OpenAI-compatible client against a stand-in server on loopback. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGuardedFetcher } from "../net/index.js";
import { AiServiceError, OpenAIClient, openAISettings } from "./openai-client.js";
import { startChatStandIn, type ChatStandIn } from "./test-support.js";

let standIn: ChatStandIn;
beforeAll(async () => {
  standIn = await startChatStandIn();
});
afterAll(async () => standIn?.close());
beforeEach(() => {
  standIn.requests.length = 0;
  standIn.replies.length = 0;
});

const fetch = createGuardedFetcher({ fetchAllow: ["127.0.0.1"] });
function client(extra: Record<string, string> = {}, options = {}): OpenAIClient {
  return OpenAIClient.fromConfig(
    { openai: { BASE_URL: standIn.baseUrl, API_KEY: "sk-test", MODEL: "tiny", ...extra } },
    fetch,
    options,
  );
}
const ask = (c: OpenAIClient) => c.chatJson([{ role: "user", content: "hello" }]);

async function failure(p: Promise<unknown>): Promise<AiServiceError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AiServiceError);
  return e as AiServiceError;
}

describe("OpenAIClient", () => {
  it("reads OPENAI_* settings, with Mealie's defaults, and is off without an API key", () => {
    expect(openAISettings({})).toBeNull();
    expect(openAISettings({ API_KEY: "k" })).toMatchObject({
      baseUrl: "https://api.openai.com/v1",
      model: "gpt-4o",
      workers: 2,
      timeoutMs: 300_000,
    });
    expect(
      openAISettings({
        API_KEY: "k",
        BASE_URL: "http://llm.lan/v1/",
        REQUEST_TIMEOUT: "5",
        CUSTOM_HEADERS: '{"X-Team":"a"}',
        CUSTOM_PARAMS: "not json",
      }),
    ).toMatchObject({
      baseUrl: "http://llm.lan/v1",
      timeoutMs: 5000,
      headers: { "X-Team": "a" },
      params: {},
    });
    expect(() => OpenAIClient.fromConfig({ openai: {} }, fetch)).toThrow(/OPENAI_API_KEY/);
  });

  it("posts a JSON-mode chat request with the key and model, and returns the parsed answer", async () => {
    standIn.replies.push({ content: '{"ok": true}' });
    expect(await ask(client({ CUSTOM_HEADERS: '{"X-Extra":"1"}', CUSTOM_PARAMS: '{"seed":3}' }))).toEqual({
      ok: true,
    });
    const [req] = standIn.requests;
    expect(req).toMatchObject({ method: "POST", path: "/v1/chat/completions" });
    expect(req.headers.authorization).toBe("Bearer sk-test");
    expect(req.headers["x-extra"]).toBe("1");
    expect(req.body).toMatchObject({
      model: "tiny",
      seed: 3,
      response_format: { type: "json_object" },
      messages: [{ role: "user", content: "hello" }],
    });
  });

  it("accepts an answer wrapped in a code fence", async () => {
    standIn.replies.push({ content: '```json\n{"a": 1}\n```' });
    expect(await ask(client())).toEqual({ a: 1 });
  });

  it("turns garbage into a 502: a body that is not JSON, no choices, content that is not a JSON object", async () => {
    standIn.replies.push(
      { status: 200, body: "<html>oops</html>" },
      { status: 200, body: '{"choices": []}' },
      { content: "sure! here you go" },
      { content: "[1, 2]" },
    );
    for (let i = 0; i < 4; i++) {
      const e = await failure(ask(client()));
      expect(e.status).toBe(502);
      expect(e.failure).toBe("bad_response");
    }
  });

  it("retries a 429 after Retry-After, and gives up with a 503 when it does not clear", async () => {
    standIn.replies.push(
      { status: 429, body: "{}", headers: { "retry-after": "0" } },
      { content: '{"second": true}' },
    );
    expect(await ask(client())).toEqual({ second: true });
    expect(standIn.requests).toHaveLength(2);

    standIn.requests.length = 0;
    for (let i = 0; i < 3; i++)
      standIn.replies.push({ status: 429, body: "{}", headers: { "retry-after": "0" } });
    const e = await failure(ask(client()));
    expect([e.status, e.failure]).toEqual([503, "rate_limited"]);
    expect(standIn.requests).toHaveLength(3);

    // A wait longer than the client will honour fails at once rather than holding the request.
    standIn.requests.length = 0;
    standIn.replies.push({ status: 429, body: "{}", headers: { "retry-after": "3600" } });
    expect((await failure(ask(client()))).status).toBe(503);
    expect(standIn.requests).toHaveLength(1);
  });

  it("reports the rate limit, not a timeout, when the deadline passes on the retry after a 429", async () => {
    // As on a loaded machine: the retry starts with little time left and the clock runs out on it.
    standIn.replies.push({ status: 429, body: "{}", headers: { "retry-after": "0" } }, { hang: true });
    const e = await failure(ask(client({ REQUEST_TIMEOUT: "0.3" })));
    expect([e.status, e.failure]).toEqual([503, "rate_limited"]);
    expect(standIn.requests).toHaveLength(2);
  });

  it("answers 504 when the service hangs past OPENAI_REQUEST_TIMEOUT", async () => {
    standIn.replies.push({ hang: true });
    const e = await failure(ask(client({ REQUEST_TIMEOUT: "0.3" })));
    expect([e.status, e.failure]).toEqual([504, "timeout"]);
  });

  it("reports refused credentials and server errors as 502", async () => {
    standIn.replies.push({ status: 401, body: '{"error":"bad key"}' });
    expect((await failure(ask(client()))).failure).toBe("refused");
    const busy = { status: 500, body: "", headers: { "retry-after": "0" } };
    standIn.replies.push(busy, busy, busy);
    const e = await failure(ask(client({}, { retries: 2 })));
    expect([e.status, e.failure]).toEqual([502, "unavailable"]);
  });

  it("goes through the guarded fetcher: a private address not allow-listed is refused", async () => {
    const strict = OpenAIClient.fromConfig(
      { openai: { BASE_URL: standIn.baseUrl, API_KEY: "k" } },
      createGuardedFetcher({}),
    );
    await expect(ask(strict)).rejects.toThrow(/not from an allowed domain/);
    expect(standIn.requests).toHaveLength(0);
  });
});
