/** A handler's answer when it needs more than "200 with this JSON". */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    /** Raw bytes (images, files) are sent as-is, not JSON-encoded. */
    readonly raw = false,
  ) {}

  static json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
    return new Reply(status, body, headers);
  }
  static created(body: unknown): Reply {
    return new Reply(201, body);
  }
  static noContent(): Reply {
    return new Reply(204, undefined);
  }
  static bytes(data: Buffer, contentType: string, headers: Record<string, string> = {}): Reply {
    return new Reply(200, data, { "Content-Type": contentType, ...headers }, true);
  }
}

/**
 * A 200 whose JSON is already bytes (a list page spliced from summaries kept as JSON, listed.ts): sent
 * with the headers a JSON answer has, in the same order, and not encoded again.
 */
export class JsonBytes {
  constructor(readonly bytes: Buffer) {}
}
