/**
 * Typed domain errors. Core throws these; web/api maps them to Mealie's status codes and error
 * shapes (mealie-api-notes §1), the CLI to messages and exit codes.
 */
export type ErrorBody =
  | string
  | { message: string; error: true; exception: string | null }
  /** Mealie's scraper failure: `{"details":"BAD_RECIPE_DATA"}`, and why when the page's own status says (0270). */
  | { details: string; message?: string }
  | Array<ValidationIssue>;

/** One item of FastAPI's HTTPValidationError `detail` list, as Mealie sends it. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export class LarderError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** Exact `detail` to send; defaults to Mealie's ErrorResponse wrapping `message`. */
    readonly detail?: ErrorBody,
  ) {
    super(message);
    this.name = new.target.name;
  }
  body(): { detail: ErrorBody } {
    return { detail: this.detail ?? { message: this.message, error: true, exception: null } };
  }
}

export class BadRequestError extends LarderError {
  constructor(message: string, detail?: ErrorBody) {
    super(message, 400, detail);
  }
}
export class UnauthorizedError extends LarderError {
  constructor(message = "Could not validate credentials") {
    super(message, 401, message);
  }
}
export class ForbiddenError extends LarderError {
  constructor(message = "Permission Denied", detail?: ErrorBody) {
    super(message, 403, detail);
  }
}
export class NotFoundError extends LarderError {
  constructor(message = "Not found.", detail?: ErrorBody) {
    super(message, 404, detail);
  }
}
/** A write refused because the file on disk changed since it was read, or a duplicate on register. */
export class ConflictError extends LarderError {
  constructor(message: string, detail?: ErrorBody) {
    super(message, 409, detail);
  }
}
export class LockedError extends LarderError {
  constructor(message = "User is locked out") {
    super(message, 423, message);
  }
}
/** Too many failed logins from one client address (decision 0018); `retryAfterSeconds` goes into Retry-After. */
export class TooManyRequestsError extends LarderError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      "Too many failed sign-ins from your address; try again later",
      429,
      "Too many failed sign-ins from your address; try again later",
    );
  }
}
export class PayloadTooLargeError extends LarderError {
  constructor(message = "Request body too large") {
    super(message, 413);
  }
}
/** 422 in the contract's HTTPValidationError shape. */
export class ValidationError extends LarderError {
  readonly issues: ValidationIssue[];
  constructor(issues: Array<ValidationIssue>) {
    // FastAPI sends `ctx` only when Pydantic gives one; `input` always.
    const full = issues.map(({ ctx, ...i }) => ({
      input: null,
      ...i,
      ...(ctx && Object.keys(ctx).length ? { ctx } : {}),
    }));
    super(issues.map((i) => `${i.loc.join(".")}: ${i.msg}`).join("; ") || "Validation error", 422, full);
    this.issues = full;
  }
}

/**
 * The disk refused a write: full, out of quota, mounted read-only, or not Larder's to write. Writes are
 * temp file then rename (storage/atomic-write.ts), so what was there stays as it was; the answer says
 * so, where an unknown error would leave a person guessing whether anything was lost.
 */
export class StorageError extends LarderError {
  constructor(
    readonly code: string,
    status: number,
    what: string,
  ) {
    super(`${what} (${code}): the change was not saved, and what was saved before is unchanged`, status);
  }
}

const STORAGE_FAILURES: Record<string, [status: number, what: string]> = {
  ENOSPC: [507, "The disk holding the data folder is full"],
  EDQUOT: [507, "The disk quota of the data folder is used up"],
  EROFS: [503, "The data folder is on a read-only file system"],
  EACCES: [500, "Larder may not open or change a file in its data folder (permission denied)"],
  EPERM: [500, "Larder may not open or change a file in its data folder (operation not permitted)"],
};

/** A system error from a write to the data folder as a StorageError; null for anything else. */
export function storageError(e: unknown): StorageError | null {
  const code = typeof e === "object" && e !== null && "code" in e ? (e as { code: unknown }).code : null;
  const syscall =
    typeof e === "object" && e !== null && "syscall" in e ? (e as { syscall: unknown }).syscall : null;
  if (typeof code !== "string" || !(code in STORAGE_FAILURES)) return null;
  // Permission errors of the calls a write makes (a temp file's open among them); not of a read.
  if ((code === "EACCES" || code === "EPERM") && !WRITE_CALLS.has(String(syscall))) return null;
  const [status, what] = STORAGE_FAILURES[code];
  return new StorageError(code, status, what);
}

const WRITE_CALLS = new Set(["open", "write", "rename", "mkdir", "link", "unlink", "fsync", "copyfile"]);

export function isLarderError(e: unknown): e is LarderError {
  return e instanceof LarderError;
}
