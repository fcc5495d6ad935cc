/**
 * Timers and cancellation for one guarded fetch. A fetch spans DNS, several hops and possibly a
 * body stream that outlives the call; all of them hang off one AbortController so that the total
 * timeout and the caller's AbortSignal tear down whatever is in flight, with one reason.
 */
import { FetchFailedError, FetchTimeoutError, OutboundFetchError } from "./errors.js";

export class FetchScope {
  readonly controller = new AbortController();
  currentUrl: string;
  private readonly timer: NodeJS.Timeout;
  private readonly unlinkCaller: () => void;

  constructor(url: string, timeoutMs: number, caller?: AbortSignal) {
    this.currentUrl = url;
    this.timer = setTimeout(
      () => this.controller.abort(new FetchTimeoutError(this.currentUrl, "total", timeoutMs)),
      timeoutMs,
    );
    const onCallerAbort = (): void => this.controller.abort(caller?.reason);
    caller?.addEventListener("abort", onCallerAbort, { once: true });
    this.unlinkCaller = () => caller?.removeEventListener("abort", onCallerAbort);
    if (caller?.aborted) onCallerAbort();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * Run `fn` when the fetch is aborted (at once if it already is); returns the unsubscribe.
   * Every resource that outlives a single await (request, response body) registers here.
   */
  onAbort(fn: (reason: Error | undefined) => void): () => void {
    const signal = this.signal;
    const run = (): void => fn(signal.reason instanceof Error ? signal.reason : undefined);
    if (signal.aborted) {
      run();
      return () => {};
    }
    signal.addEventListener("abort", run, { once: true });
    return () => signal.removeEventListener("abort", run);
  }

  /** Settle with `promise` unless the fetch is aborted first (dns.lookup itself cannot be cancelled). */
  race<T>(promise: Promise<T>): Promise<T> {
    const signal = this.signal;
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  }

  /** Abort reasons win (they explain why a socket died); typed errors pass; the rest become FetchFailedError. */
  mapError(err: unknown): Error {
    if (this.signal.aborted) {
      const reason: unknown = this.signal.reason;
      return reason instanceof Error ? reason : new DOMException("The operation was aborted", "AbortError");
    }
    if (err instanceof OutboundFetchError) return err;
    const e = err instanceof Error ? err : new Error(String(err));
    return new FetchFailedError(this.currentUrl, e.message, (e as NodeJS.ErrnoException).code);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.unlinkCaller();
  }
}
