/**
 * GET /api/larder/events: Larder's live channel (Server-Sent Events; no Mealie route lives under
 * /api/larder). Every open client of a household hears, within a second, each change to its shopping
 * lists, items and meal plan entries, with the changed objects. Auth as the rest of /api (bearer or
 * the session cookie); a heartbeat comment every 15 s keeps proxies from closing an idle stream; a
 * user may hold a bounded number of streams at once (429 beyond it).
 */
import type { LiveChange } from "../../../core/live/live-hub.js";
import { LarderError } from "../../../core/errors.js";
import { route } from "../router.js";

export const LIVE_PATH = "/api/larder/events";
export const MAX_STREAMS_PER_USER = 8;
export const HEARTBEAT_MS = 15_000;

const openPerUser = new Map<string, number>();

class TooManyStreamsError extends LarderError {
  constructor() {
    const message = `At most ${MAX_STREAMS_PER_USER} live streams per user; close another tab or device first`;
    super(message, 429, { message, error: true, exception: null });
  }
}

export const liveRoutes = [
  route("GET", LIVE_PATH, "user", (ctx) => {
    const user = ctx.user;
    const open = openPerUser.get(user.id) ?? 0;
    if (open >= MAX_STREAMS_PER_USER) throw new TooManyStreamsError();
    const { res, req } = ctx;
    openPerUser.set(user.id, open + 1);
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-store",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    });
    let seq = 0;
    const send = (event: string, data: unknown) => {
      res.write(`event: ${event}\nid: ${++seq}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    send("ready", { householdId: user.householdId, groupId: user.groupId });
    const unsubscribe = ctx.larder.live.subscribe(user.householdId, (c: LiveChange) => {
      if (c.groupId !== user.groupId) return;
      send(c.kind, { kind: c.kind, operation: c.operation, data: c.data });
    });
    const heartbeat = setInterval(() => res.write(`: heartbeat\n\n`), HEARTBEAT_MS);
    heartbeat.unref();
    let closed = false;
    const cleanup = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      const n = (openPerUser.get(user.id) ?? 1) - 1;
      if (n <= 0) openPerUser.delete(user.id);
      else openPerUser.set(user.id, n);
    };
    req.on("close", cleanup);
    res.on("close", cleanup);
    res.on("error", cleanup);
    return undefined;
  }),
];
