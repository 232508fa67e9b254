/** `deno task bench:http`: GET /api/v1/points (auth + rate limit + ledger read) beside a bare Hono route. */
import {
  BENCH_CONCURRENCY,
  BENCH_SECONDS,
  printRow,
  runLoad,
  startBareHono,
  startBenchService,
} from "./http_support.ts";

const bare = startBareHono();
const service = await startBenchService();
try {
  console.log(
    `bench:http  ${BENCH_SECONDS}s per run, ${BENCH_CONCURRENCY} connections, database ${service.databaseKind}`,
  );
  const headers = { Authorization: `Bearer ${service.apiKey}` };
  await runLoad(`${service.url}/api/v1/points`, { headers }); // warm-up
  const baseline = await runLoad(`http://127.0.0.1:${bare.addr.port}/bare`);
  printRow("bare Hono GET /bare", baseline);
  const points = await runLoad(`${service.url}/api/v1/points`, { headers });
  printRow("GET /api/v1/points", points, baseline);
} finally {
  await service.stop();
  await bare.shutdown();
}
