// The part of autocannon's API the bench uses (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    p50: number;
    p90: number;
    p99: number;
    max: number;
    average: number;
  }
  interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    duration: number;
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  interface Options {
    url: string;
    method?: string;
    connections?: number;
    amount?: number;
    maxOverallRequests?: number;
    duration?: number;
    timeout?: number;
    headers?: Record<string, string>;
    body?: string;
    requests?: { setupRequest?: (req: any, context: any) => any }[];
  }
  interface Instance extends PromiseLike<Result> {
    stop(): void;
  }
  function autocannon(opts: Options): Instance;
  export default autocannon;
}
