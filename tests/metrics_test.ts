/**
 * `GET /metrics`: closed without its token, absent without one configured, and its series move
 * exactly as the calls made did; no name, address or domain in any label.
 */
import assert from "node:assert/strict";
import { countActiveJobs } from "../domain/bulk/count_active_jobs.ts";
import { createPrometheusTelemetry } from "../domain/observability/prometheus_telemetry.ts";
import { finder, PRICE_EMAIL, startWorld } from "./find_world.ts";
import { bearer, createTestEnv, createTestWorkspace, UNLIMITED_RATE_LIMITS } from "./harness.ts";

const TOKEN = "metrics-token-0123456789";

/** The value of one series in the text format (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  let total = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? "").split(",");
    if (wanted.every((label) => have.includes(label))) total += Number(match[3]);
  }
  return total;
}

Deno.test("metrics: 404 without METRICS_TOKEN; 401 without or with a wrong token", async () => {
  const off = await createTestEnv();
  try {
    const res = await off.app.request("/metrics");
    assert.equal(res.status, 404);
    await res.body?.cancel();
  } finally {
    await off.close();
  }
  const metrics = createPrometheusTelemetry({ workspaceLabels: false });
  const on = await createTestEnv({
    telemetry: metrics,
    app: { metrics: { token: TOKEN, metrics } },
  });
  try {
    for (const headers of [{}, bearer("metrics-token-wrong-0000"), bearer(TOKEN + "x")]) {
      const res = await on.app.request("/metrics", { headers });
      assert.equal(res.status, 401);
      assert.equal(res.headers.get("www-authenticate"), 'Bearer realm="metrics"');
      assert.equal((await res.json()).error.code, "unauthenticated");
    }
    const res = await on.app.request("/metrics", { headers: bearer(TOKEN) });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
    // Only our series: prom-client's process metrics are not registered.
    assert.doesNotMatch(await res.text(), /process_cpu|nodejs_/);
  } finally {
    await on.close();
  }
});

Deno.test("metrics: lookups, sessions, charges, replays and requests move as the calls did", async () => {
  const metrics = createPrometheusTelemetry({ workspaceLabels: false });
  const world = await startWorld({
    telemetry: metrics,
    app: { metrics: { token: TOKEN, metrics } },
  });
  try {
    const { env, smtp } = world;
    const ws = await createTestWorkspace(env);
    const find = finder(env, ws.apiKey);
    const scrape = async () => {
      const res = await env.app.request("/metrics", { headers: bearer(TOKEN) });
      assert.equal(res.status, 200);
      return await res.text();
    };

    const found = await find({ name: "Grace Hopper", company: "acme.test" }, "key-metrics-0001");
    assert.equal(found.data.found, true);
    const replayed = await find({ name: "Grace Hopper", company: "acme.test" }, "key-metrics-0001");
    assert.equal(replayed.data.replay, true);
    const grey = await find({ name: "Ada Lovelace", company: "grey.test" });
    assert.equal(grey.data.found, false);
    const nomail = await find({ name: "Ada Lovelace", company: "nomail.test" });
    assert.equal(nomail.data.reason, "unusable-domain");
    const bad = await find({ name: "", company: "acme.test" });
    assert.equal(bad.status, 400);

    const text = await scrape();
    assert.equal(sample(text, "lookups_total", { operation: "find", reason: "found" }), 1);
    assert.equal(
      sample(text, "lookups_total", { operation: "find", reason: grey.data.reason }),
      1,
    );
    assert.equal(
      sample(text, "lookups_total", { operation: "find", reason: "unusable-domain" }),
      1,
    );
    assert.equal(sample(text, "points_charged_total", { operation: "findEmail" }), PRICE_EMAIL);
    assert.equal(sample(text, "idempotency_replays_total", { operation: "find" }), 1);
    // Every session the fake mail hosts saw, once each, by outcome; the fake MX names are ours.
    const sessions = sample(text, "verification_sessions_total");
    assert.equal(sessions, smtp.sessions.length);
    assert.ok(sample(text, "verification_sessions_total", { outcome: "accepted" }) >= 1);
    assert.ok(sample(text, "verification_sessions_total", { outcome: "greylisted" }) >= 2);
    assert.equal(sample(text, "verification_session_seconds_count"), sessions);
    assert.ok(sample(text, "dns_questions_total", { type: "MX", outcome: "records" }) >= 2);
    assert.equal(sample(text, "db_query_seconds_count", { query: "ledger_charge" }), 1);
    assert.equal(
      sample(text, "http_requests_total", { route: "/api/v1/find", method: "POST", status: "200" }),
      4,
    );
    assert.equal(
      sample(text, "http_requests_total", { route: "/api/v1/find", method: "POST", status: "400" }),
      1,
    );
    // Labels from fixed vocabularies only: no name, address, domain, MX host or key.
    for (const secret of ["Grace", "Hopper", "acme.test", "grey.test", "example.test", ws.apiKey]) {
      assert.ok(!text.includes(secret), `metrics mention ${secret}`);
    }
    assert.ok(!text.includes("workspace="), "no workspace label unless asked for");
  } finally {
    await world.close();
  }
});

Deno.test("metrics: rate_limited_total by budget, the workspace label only when asked", async () => {
  const metrics = createPrometheusTelemetry({ workspaceLabels: true });
  const env = await createTestEnv({
    telemetry: metrics,
    app: { metrics: { token: TOKEN, metrics } },
    config: {
      rateLimits: { ...UNLIMITED_RATE_LIMITS, name_parse: { limit: 1, windowSeconds: 60 } },
    },
  });
  try {
    const ws = await createTestWorkspace(env);
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const res = await env.app.request("/api/v1/name/parse", {
        method: "POST",
        headers: bearer(ws.apiKey, { "Content-Type": "application/json" }),
        body: JSON.stringify({ name: "Grace Hopper" }),
      });
      statuses.push(res.status);
      await res.body?.cancel();
    }
    const limited = statuses.filter((status) => status === 429).length;
    assert.ok(limited >= 2, `statuses ${statuses}`);
    const res = await env.app.request("/metrics", { headers: bearer(TOKEN) });
    const text = await res.text();
    assert.equal(
      sample(text, "rate_limited_total", { budget: "name_parse", workspace: ws.workspaceId }),
      limited,
    );
  } finally {
    await env.close();
  }
});

Deno.test("metrics: bulk_jobs counts the jobs not finished, by state", async () => {
  const env = await createTestEnv();
  try {
    const ws = await createTestWorkspace(env, 1000);
    const res = await env.app.request("/api/v1/bulk/jobs", {
      method: "POST",
      headers: bearer(ws.apiKey, {
        "Content-Type": "application/json",
        "Idempotency-Key": "bulk-gauge-1",
      }),
      body: JSON.stringify({ operation: "enrich", rows: [{ email: "a@acme.test" }] }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    await res.body?.cancel();
    const metrics = createPrometheusTelemetry({
      workspaceLabels: false,
      countJobs: () => countActiveJobs(env),
    });
    const text = await metrics.render();
    assert.equal(sample(text, "bulk_jobs", { state: "queued" }), 1);
    assert.equal(sample(text, "bulk_jobs", { state: "processing" }), 0);
  } finally {
    await env.close();
  }
});
