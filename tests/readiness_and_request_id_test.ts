/**
 * `/readyz` for load balancers (503 while starting, stopping or without a database), and the
 * request id on every answer, every log line of its request and every error body.
 */
import assert from "node:assert/strict";
import { checkReadiness, createReadiness } from "../domain/health/readiness.ts";
import { memoryLogger } from "../domain/shared/logger.ts";
import { createTestEnv, DB_TEST, startTestService } from "./harness.ts";

Deno.test("readyz: 503 starting, 200 ready, 503 stopping; healthz unchanged", async () => {
  const readiness = createReadiness();
  const env = await createTestEnv({ app: { readiness } });
  try {
    const ready = async () => {
      const res = await env.app.request("/readyz");
      return { status: res.status, body: await res.json() };
    };
    assert.deepEqual(await ready(), { status: 503, body: { status: "starting" } });
    readiness.ready();
    assert.deepEqual(await ready(), { status: 200, body: { status: "ready" } });
    readiness.stopping();
    assert.deepEqual(await ready(), { status: 503, body: { status: "stopping" } });
    // Stopping is final: a late `ready()` does not bring traffic back.
    readiness.ready();
    assert.equal((await ready()).status, 503);
    const health = await env.app.request("/healthz");
    assert.equal(health.status, 200);
    assert.equal((await health.json()).status, "ok");
  } finally {
    await env.close();
  }
});

Deno.test("readyz: a database that does not answer is not ready", async () => {
  const readiness = createReadiness("ready");
  const refused = { sql: () => Promise.reject(new Error("connection refused")) };
  const hung = { sql: () => new Promise(() => {}) };
  for (const db of [refused, hung]) {
    const answer = await checkReadiness({ db } as never, readiness, 50);
    assert.deepEqual(answer, { ready: false, status: "database-unreachable" });
  }
});

Deno.test(
  "readyz: the real service is ready once listening and 503 from the moment it stops",
  DB_TEST,
  async () => {
    const logger = memoryLogger();
    const test = await startTestService(logger, { METRICS_TOKEN: "scrape-token-0123456789" });
    try {
      const first = await fetch(`${test.base}/readyz`);
      assert.equal(first.status, 200);
      await first.body?.cancel();
      const scrape = await fetch(`${test.base}/metrics`, {
        headers: { Authorization: "Bearer scrape-token-0123456789" },
      });
      assert.equal(scrape.status, 200);
      assert.match(
        await scrape.text(),
        /http_requests_total\{route="\/readyz",method="GET",status="200"\} 1/,
      );
      const stopping = test.stop({ keepDataDir: true });
      const during = await test.service.app.request("/readyz");
      assert.equal(during.status, 503);
      assert.deepEqual(await during.json(), { status: "stopping" });
      await stopping;
    } finally {
      await test.cleanup();
    }
  },
);

Deno.test("request ids: kept when well formed, on every log line of the request and in error bodies", async () => {
  const env = await createTestEnv({
    app: {
      extraRoutes: (app) =>
        app.get("/test/deep-log", async (c) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          env.ctx.logger.info("inside the work");
          return c.json({ ok: true });
        }),
    },
  });
  try {
    const mine = "caller-chosen-id-42";
    const res = await env.app.request("/test/deep-log", { headers: { "X-Request-Id": mine } });
    assert.equal(res.headers.get("x-request-id"), mine);
    await res.body?.cancel();
    const lines = env.logLines.map((line) => JSON.parse(line));
    const inside = lines.find((line) => line.msg === "inside the work");
    assert.equal(inside?.requestId, mine, "a line written by the work carries the id");
    assert.equal(lines.find((line) => line.msg === "request")?.requestId, mine);

    // A malformed id is replaced; the error body quotes the id the answer carries.
    const bad = await env.app.request("/api/v1/points", { headers: { "X-Request-Id": "a b" } });
    assert.equal(bad.status, 401);
    const id = bad.headers.get("x-request-id")!;
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.equal((await bad.json()).error.requestId, id);
    const missing = await env.app.request("/nothing-here");
    assert.equal((await missing.json()).error.requestId, missing.headers.get("x-request-id"));
    // Outside a request, lines carry no id.
    env.ctx.logger.info("between requests");
    assert.equal(JSON.parse(env.logLines.at(-1)!).requestId, undefined);
  } finally {
    await env.close();
  }
});
