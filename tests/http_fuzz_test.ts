/**
 * Every API route, sent bodies put together at random (wrong types, blanks, over-long and
 * over-many values, control characters, NUL, lone surrogates, odd run ids and Idempotency-Keys):
 * bad input is a 4xx with the error envelope, never a 500. Seeded, so a failure names its request.
 * Outside services are offline here (every provider answers that it is unavailable).
 * FUZZ_SEED and FUZZ_ROUNDS (default 20261126 and 600) run other requests, for a longer search.
 */
import { mulberry32 } from "../domain/shared/mulberry32.ts";
import assert from "node:assert/strict";
import { loadNameModel } from "../model/mod.ts";
import {
  bearer,
  createTestEnv,
  createTestWorkspace,
  DB_TEST,
  UNLIMITED_RATE_LIMITS,
} from "./harness.ts";

const TEXTS = [
  "",
  " ",
  "Jane Roe",
  "x".repeat(300),
  "\u0000",
  "a\u0000b",
  "Jane\u0007Roe",
  "\ud800",
  "😀",
  "jane@example.com",
  "JANE@EXAMPLE.COM ",
  "a@b",
  "https://network.example/in/jane",
  "ftp://x",
  "example.com",
  "%00",
  "<script>",
  "Acme Inc.",
  "王小明",
  '"Jane Roe"',
  "run_0a1b2c3d4e5f60718293",
  "run_\u0000",
  "\u200f\u202e",
  "e\u0301\u0301\u0301",
  "\ufeffJane Roe",
  "Jane\u2028Roe",
  "ǅ",
  "İ",
  "ß".repeat(200),
  "1e9",
  "-0",
  "__proto__",
  "constructor",
];

/** Run ids as a path holds them: made up, impossible, encoded NUL, a lone surrogate, a bare %. */
const RUN_IDS = [
  "x",
  "run_0a1b2c3d4e5f60718293",
  "run_%00x",
  "%00",
  "%ED%A0%80",
  "a%2Fb",
  "%",
  "%25",
  "x".repeat(300),
];

Deno.test("http fuzz: bad bodies on every route are 4xx, never 500", DB_TEST, async () => {
  const env = await createTestEnv({
    config: { rateLimits: UNLIMITED_RATE_LIMITS },
    nameModel: (await loadNameModel()).model,
  });
  try {
    const ws = await createTestWorkspace(env, 1_000_000);
    const next = mulberry32(Number(Deno.env.get("FUZZ_SEED") ?? 20261126));
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
    const value = (): unknown =>
      pick<unknown>([
        ...TEXTS,
        0,
        -1,
        1e308,
        1.5,
        true,
        null,
        [],
        {},
        [pick(TEXTS)],
        { a: 1 },
        Array(101).fill("Jane Roe"),
      ]);
    const routes: [string, string, (() => unknown) | null][] = [
      ["POST", "/api/v1/name/parse", () => ({ name: value(), spelling: pick(["folded", "x", 1]) })],
      ["POST", "/api/v1/name/parse/batch", () => ({ names: pick([value(), [value(), value()]]) })],
      [
        "POST",
        "/api/v1/find",
        () => ({
          mode: pick(["email", "company", "network", "x", 1]),
          name: value(),
          company: value(),
          networkUrl: value(),
        }),
      ],
      [
        "POST",
        "/api/v1/network-search",
        () => ({ firstName: value(), lastName: value(), company: value() }),
      ],
      ["POST", "/api/v1/enrich/email", () => ({ email: value() })],
      ["POST", "/api/v1/verify", () => ({ email: value() })],
      [
        "POST",
        "/api/v1/lead-search",
        () => ({
          filters: pick([value(), { jobTitle: value(), location: value(), headcount: value() }]),
          count: value(),
          continueFromRunId: value(),
        }),
      ],
      ["GET", "/api/v1/lead-search/runs/RUN", null],
      ["POST", "/api/v1/lead-search/runs/RUN/cancel", () => value()],
      ["GET", "/api/v1/points", null],
    ];
    const faults: string[] = [];
    const statuses = new Set<number>();
    const rounds = Number(Deno.env.get("FUZZ_ROUNDS") ?? 600);
    for (let i = 0; i < rounds; i++) {
      const [method, template, body] = pick(routes);
      const path = template.replace("RUN", pick(RUN_IDS));
      const extra: Record<string, string> = {
        "Content-Type": pick(["application/json", "application/json", "text/plain"]),
      };
      if (next() < 0.7) extra["Idempotency-Key"] = pick([`fuzz-${i}`, " ", "x".repeat(300), "dup"]);
      const payload = body === null ? undefined : next() < 0.1
        ? pick([
          "{",
          "null",
          "[]",
          '"x"',
          "",
          '{"__proto__":{"name":"Jane Roe"}}',
          '{"name":"Jane Roe","name":7}',
          "[".repeat(5000) + "]".repeat(5000),
          '{"names":' + "[".repeat(100) + "]".repeat(100) + "}",
        ])
        : JSON.stringify(body());
      const res = await env.app.request(path, {
        method,
        headers: bearer(ws.apiKey, extra),
        body: method === "GET" ? undefined : payload,
      });
      const text = await res.text();
      statuses.add(res.status);
      if (res.status >= 500) {
        faults.push(`${method} ${path} ${res.status} ${JSON.stringify(payload)?.slice(0, 200)}`);
      } else if (res.status >= 400) {
        const envelope = JSON.parse(text);
        assert.equal(typeof envelope.error?.code, "string", text);
      }
    }
    assert.deepEqual(faults.slice(0, 10), []);
    // the requests reach answers as well as refusals
    assert.ok(statuses.has(200) && statuses.has(400), [...statuses].join(" "));
  } finally {
    await env.close();
  }
});
