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
