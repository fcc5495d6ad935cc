/** The small node:http ⇄ Fetch adapter Remix needs (we do not use express or remix-serve). */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  createReadableStreamFromReadable,
  createRequestHandler,
  writeReadableStreamToWritable,
  type ServerBuild,
} from "@remix-run/node";
import type { Larder } from "../../core/larder.js";

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export function createRemixHandler(build: ServerBuild, larder: Larder): NodeHandler {
  const handle = createRequestHandler(build, "production");
  return async (req, res) => {
    const controller = new AbortController();
    res.on("close", () => controller.abort());
    const host = req.headers.host ?? "localhost";
    const url = new URL(req.url ?? "/", `http://${host}`);
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
    if (req.method !== "GET" && req.method !== "HEAD") {
      init.body = createReadableStreamFromReadable(req);
      init.duplex = "half";
    }
    const response = await handle(new Request(url, init), { larder });
    res.statusCode = response.status;
    res.statusMessage = response.statusText;
    for (const [k, v] of response.headers) if (k !== "set-cookie") res.setHeader(k, v);
    const cookies = response.headers.getSetCookie();
    if (cookies.length) res.setHeader("set-cookie", cookies);
    if (response.body && req.method !== "HEAD") await writeReadableStreamToWritable(response.body, res);
    else res.end();
  };
}
