/** The part of autocannon 8's API the benchmark uses (the package ships no types). */
declare module "autocannon" {
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    max: number;
    total: number;
  }
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    /** Called before each request is sent; returns the request to send. */
    setupRequest?: (req: Request) => Request;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    /** Seconds before a request counts as timed out (default 10). */
    timeout?: number;
    headers?: Record<string, string>;
    requests?: Request[];
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  /** The running benchmark: a promise of its result that also reports each response as it completes. */
  interface Instance extends Promise<Result> {
    /** `client` is the connection's own object; the callback runs before that client sends its next request. */
    on(
      event: "response",
      listener: (client: object, statusCode: number, resBytes: number, responseTime: number) => void,
    ): this;
  }
  function autocannon(opts: Options): Instance;
  export default autocannon;
}
