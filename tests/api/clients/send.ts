/**
 * What the client replays share: a request sent as the client builds it (its own headers and body
 * bytes), read back the way every one of them reads an answer.
 */
export interface Answer {
  status: number;
  ok: boolean;
  /** The answer's Content-Type. */
  type: string;
  text: string;
  /** The JSON the answer holds; its text when it is not JSON; null when it is empty. */
  body: unknown;
}

export async function send(url: string | URL, init: RequestInit): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text === "" ? null : text;
  try {
    if (text !== "") body = JSON.parse(text);
  } catch {
    // Not JSON: a file, a page, a bare status answer.
  }
  return { status: res.status, ok: res.ok, type: res.headers.get("content-type") ?? "", text, body };
}

/** A JSON body's init: the client's headers, plus the JSON content type when there is a body. */
export function withJson(headers: Record<string, string>, method: string, json: unknown): RequestInit {
  return json === undefined
    ? { method, headers }
    : { method, headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(json) };
}
