/**
 * A small closed-loop HTTP load generator, run as its own process so it does not share the
 * server's event loop: `deno run -A bench/load.ts URL SECONDS CONCURRENCY [HEADERS_JSON] [METHOD] [BODY]`.
 * Prints one JSON line: { requests, seconds, rps, statuses, p50Ms, p99Ms }.
 */
const [url, secondsArg = "5", concurrencyArg = "32", headersJson = "{}", method = "GET", body] =
  Deno.args;
const seconds = Number(secondsArg);
const concurrency = Number(concurrencyArg);
const headers = JSON.parse(headersJson);
/** A header value "{uuid}" asks for a fresh Idempotency-Key on every request. */
const perRequestKey = headers["Idempotency-Key"] === "{uuid}";
const statuses: Record<number, number> = {};
const latencies: number[] = [];
const deadline = performance.now() + seconds * 1000;

async function loop() {
  while (performance.now() < deadline) {
    const started = performance.now();
    const requestHeaders = perRequestKey
      ? { ...headers, "Idempotency-Key": crypto.randomUUID() }
      : headers;
    const res = await fetch(url, { method, headers: requestHeaders, body });
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  }
}

const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, loop));
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (q: number) => Math.round(latencies[Math.floor(q * (latencies.length - 1))] * 100) / 100;
console.log(JSON.stringify({
  requests: latencies.length,
  seconds: Math.round(elapsed * 100) / 100,
  rps: Math.round(latencies.length / elapsed),
  statuses,
  p50Ms: at(0.5),
  p99Ms: at(0.99),
}));
