/**
 * GET /api/utils/download?token= (mealie-api-notes §4.15): public, the file token is the credential.
 * The file is streamed, not buffered: bulk exports with images can be large.
 */
import { pipeline } from "node:stream/promises";
import { route } from "../router.js";
import { attachment } from "./exports.js";

export const utilRoutes = [
  route("GET", "/api/utils/download", "public", async (ctx) => {
    const { handle, size, filename } = await ctx.larder.exports.openDownload(ctx.query.get("token"));
    ctx.res.writeHead(200, {
      "Content-Type": "application/octet-stream",
      "Content-Length": size,
      "Content-Disposition": attachment(filename),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    });
    if (ctx.req.method === "HEAD") {
      await handle.close();
      ctx.res.end();
      return undefined;
    }
    await pipeline(handle.createReadStream(), ctx.res);
    return undefined;
  }),
];
