/**
 * Traces as an operator switches them on (`OTEL_DENO=true`, the standard `OTEL_EXPORTER_OTLP_*`
 * variables, `deno task start`'s own settings), against a small OTLP/HTTP receiver on 127.0.0.1:
 * the service (main.ts, a child process) sends request spans named by route template and a span
 * per SMTP session and provider call; nothing it exports (our spans, Deno's logs and metrics)
 * holds a submitted name, address, domain, the address's hash or the API key, though the web
 * search's request URL holds the name and Gravatar's the address's hash.
 */
import assert from "node:assert/strict";
import { BENCH_API_KEY, startServiceProcess } from "../bench/service_process.ts";
import { startFakeWorld } from "./fakes/serve_fakes.ts";
import { DB_TEST } from "./harness.ts";

const SERVICE_PORT = 18_833;

Deno.test(
  "otlp: request and SMTP spans arrive; no canary in any span, metric or log",
  DB_TEST,
  async () => {
    const received: { path: string; text: string }[] = [];
    const receiver = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      // Strings sit as UTF-8 in both OTLP encodings (protobuf and JSON): scan the raw bytes.
      const bytes = new Uint8Array(await req.arrayBuffer());
      received.push({ path: new URL(req.url).pathname, text: new TextDecoder().decode(bytes) });
      return new Response(null, { status: 200 });
    });
    const world = await startFakeWorld();
    const service = await startServiceProcess({
      ...world.env,
      OTEL_DENO: "true",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiver.addr.port}`,
      OTEL_METRIC_EXPORT_INTERVAL: "200",
      LOG_REQUESTS: "true",
      LEAD_SEARCH_RUNNER: "off",
    }, { port: SERVICE_PORT });
    try {
      const post = async (path: string, body: unknown) => {
        const res = await fetch(`${service.base}${path}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${BENCH_API_KEY}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: await res.json() };
      };
      const found = await post("/api/v1/find", { name: "Grace Hopper", company: "acme.test" });
      assert.equal(found.body.data.found, true);
      const search = await post("/api/v1/network-search", {
        firstName: "Grace",
        lastName: "Hopper",
      });
      assert.equal(search.status, 200);
      const enriched = await post("/api/v1/enrich/email", { email: "Grace.Hopper@acme.test" });
      assert.equal(enriched.status, 200);
    } finally {
      // A stop flushes the spans still batched; Deno exports its logs and metrics on exit.
      await service.stop();
      await world.close();
      await receiver.shutdown();
    }

    const traces = received.filter((r) => r.path === "/v1/traces").map((r) => r.text).join("\n");
    for (
      const name of [
        "POST /api/v1/find",
        "POST /api/v1/network-search",
        "smtp session",
        "dns MX",
        "brave request",
        "gravatar request",
        "ledger charge",
      ]
    ) {
      assert.ok(traces.includes(name), `a span named ${name}`);
    }
    assert.ok(received.some((r) => r.path === "/v1/logs"), "Deno's log export arrived");
    const hash = Array.from(
      new Uint8Array(
        await crypto.subtle.digest("SHA-256", new TextEncoder().encode("grace.hopper@acme.test")),
      ),
      (b) => b.toString(16).padStart(2, "0"),
    ).join("");
    const canaries = [
      "Grace",
      "Hopper",
      "grace.hopper",
      "acme.test",
      "example.test",
      hash,
      BENCH_API_KEY.slice(7),
    ];
    for (const { path, text } of received) {
      for (const canary of canaries) {
        assert.ok(!text.includes(canary), `${path} holds ${canary}`);
      }
    }
  },
);

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

Deno.test(
  "otlp: http/json is honoured, and every span a request or a bulk job causes is a child in its trace",
  DB_TEST,
  async () => {
    const spans: ExportedSpan[] = [];
    const mediaTypes = new Set<string>();
    const receiver = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      const path = new URL(req.url).pathname;
      const bytes = new Uint8Array(await req.arrayBuffer());
      if (path !== "/v1/traces") return new Response(null, { status: 200 });
      const mediaType = req.headers.get("content-type") ?? "";
      mediaTypes.add(mediaType);
      if (mediaType.startsWith("application/json")) {
        const body = JSON.parse(new TextDecoder().decode(bytes)) as {
          resourceSpans: { scopeSpans: { spans: ExportedSpan[] }[] }[];
        };
        for (const resource of body.resourceSpans) {
          for (const scope of resource.scopeSpans) spans.push(...scope.spans);
        }
      }
      return new Response(null, { status: 200 });
    });
    const world = await startFakeWorld();
    const service = await startServiceProcess({
      ...world.env,
      OTEL_DENO: "true",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiver.addr.port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_METRIC_EXPORT_INTERVAL: "60000",
      // The bulk runner follows the lead-search runner's switch; inline, runs report here too.
      LEAD_SEARCH_RUNNER: "inline",
      LEAD_SEARCH_POLL_MS: "50",
    }, { port: SERVICE_PORT + 1 });
    try {
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${service.base}${path}`, {
          method,
          headers: {
            Authorization: `Bearer ${BENCH_API_KEY}`,
            "Content-Type": "application/json",
            "Idempotency-Key": crypto.randomUUID(),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, body: await res.json() };
      };
      const found = await call("POST", "/api/v1/find", {
        name: "Grace Hopper",
        company: "acme.test",
      });
      assert.equal(found.body.data.found, true);
      assert.equal(
        (await call("POST", "/api/v1/network-search", { firstName: "Grace", lastName: "Hopper" }))
          .status,
        200,
      );
      assert.equal(
        (await call("POST", "/api/v1/enrich/email", { email: "grace.hopper@acme.test" })).status,
        200,
      );
      const job = await call("POST", "/api/v1/bulk/jobs", {
        operation: "find",
        rows: [{ name: "Peter Gibbons", company: "initech.test" }],
      });
      assert.equal(job.status, 200, JSON.stringify(job.body));
      const jobId = job.body.data.job.id;
      const deadline = Date.now() + 30_000;
      for (;;) {
        const read = await call("GET", `/api/v1/bulk/jobs/${jobId}`);
        if (read.body.data.status === "completed") break;
        assert.ok(Date.now() < deadline, "the bulk job completed");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await service.stop();
      await world.close();
      await receiver.shutdown();
    }

    assert.deepEqual([...mediaTypes], ["application/json"], "spans sent as OTLP/JSON");
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    /** The span at the top of a span's trace, following parent ids. */
    const rootOf = (span: ExportedSpan): ExportedSpan => {
      let at = span;
      while (at.parentSpanId) {
        const parent = byId.get(at.parentSpanId);
        assert.ok(parent, `the parent of ${at.name} was exported`);
        assert.equal(parent.traceId, at.traceId, `${at.name} is in its parent's trace`);
        at = parent;
      }
      return at;
    };
    const operations = [
      "smtp session",
      "dns MX",
      "ledger charge",
      "brave request",
      "gravatar request",
    ];
    for (const span of spans) {
      if (!operations.includes(span.name)) continue;
      assert.ok(span.parentSpanId, `${span.name} has a parent`);
      const root = rootOf(span);
      assert.match(root.name, /^(POST \/api\/v1\/|bulk job$)/, `${span.name} under ${root.name}`);
    }
    const under = (rootName: string) =>
      new Set(spans.filter((span) => rootOf(span).name === rootName).map((span) => span.name));
    const find = under("POST /api/v1/find");
    for (const name of ["smtp session", "dns MX", "ledger charge"]) {
      assert.ok(find.has(name), `the find's trace holds ${name}`);
    }
    assert.ok(under("POST /api/v1/network-search").has("brave request"));
    assert.ok(under("POST /api/v1/enrich/email").has("gravatar request"));
    const bulk = under("bulk job");
    for (const name of ["smtp session", "dns MX"]) {
      assert.ok(bulk.has(name), `the bulk job's trace holds ${name}`);
    }
  },
);
