/**
 * `deno task bench:parse`: billed name parsing over HTTP beside a bare Hono route, same run.
 * Single: POST /api/v1/name/parse (auth, rate limit, clean + model, charge) in requests/s.
 * Batch: POST /api/v1/name/parse/batch with 100 distinct names per request, in names/s.
 */
import {
  BENCH_CONCURRENCY,
  BENCH_SECONDS,
  printRow,
  runLoad,
  startBareHono,
  startBenchService,
} from "./http_support.ts";
import { GOLDEN } from "../model/golden_cases.ts";

/**
 * 100 distinct names for the batch body (the project's own golden cases, none from the dev set):
 * the model's word memo lives for one call only, so repeats within a batch would flatter it.
 */
const BATCH_NAMES = [...new Set(GOLDEN.map((c) => c.words))].slice(0, 100);

const bare = startBareHono();
const service = await startBenchService();
try {
  console.log(
    `bench:parse  ${BENCH_SECONDS}s per run, ${BENCH_CONCURRENCY} connections, database ${service.databaseKind}`,
  );
  const headers = { Authorization: `Bearer ${service.apiKey}`, "Content-Type": "application/json" };
  const single = JSON.stringify({ name: "Dr. Grace Brewster Hopper" });
  await runLoad(`${service.url}/api/v1/name/parse`, { headers, method: "POST", body: single }); // warm-up
  const baseline = await runLoad(`http://127.0.0.1:${bare.addr.port}/bare`, {
    headers,
    method: "POST",
    body: single,
  });
  printRow("bare Hono POST /bare", baseline);
  const parsed = await runLoad(`${service.url}/api/v1/name/parse`, {
    headers,
    method: "POST",
    body: single,
  });
  printRow("POST /api/v1/name/parse (billed)", parsed, baseline);

  // Batch: every request needs its own Idempotency-Key; the load generator sends one per
  // request when the header value is the placeholder "{uuid}".
  const names = BATCH_NAMES;
  if (names.length !== 100) throw new Error("the batch benchmark needs 100 distinct names");
  const batch = await runLoad(`${service.url}/api/v1/name/parse/batch`, {
    headers: { ...headers, "Idempotency-Key": "{uuid}" },
    method: "POST",
    body: JSON.stringify({ names }),
  });
  printRow("POST /api/v1/name/parse/batch x100", batch);
  console.log(
    `batch names/s (billed, 100 per request): ${batch.rps * 100}   single billed / bare: ${
      (100 * parsed.rps / baseline.rps).toFixed(1)
    }%`,
  );
} finally {
  await service.stop();
  await bare.shutdown();
}
