/**
 * The shared suite every billable route runs (design: "one shared test suite"): 401 before any
 * work, 429 and refusals not billed, a replay free and identical, a changed body under the same
 * key a 409 conflict, concurrent requests under one key charged once, and a wrong Content-Type a
 * 400 validation_error. Each route brings a request that is answered and billed, another one,
 * and one that is refused.
 */
import assert from "node:assert/strict";
import { DEFAULT_RATE_LIMITS, type RateLimitBudget } from "../domain/config/config.ts";
import { recordVerifiedEmail } from "../domain/directory/record_verified_email.ts";
import {
  bearer,
  countCharges,
  createTestEnv,
  createTestWorkspace,
  DB_TEST,
  type TestEnv,
  withoutRequestId,
} from "./harness.ts";
import { importProfiles } from "./profiles.ts";
import type { Ports } from "../domain/context.ts";
import type { EmailVerifier } from "../domain/verify/mod.ts";

interface BillableRoute {
  path: string;
  budget: RateLimitBudget;
  idempotencyKey: "optional" | "required";
  /** Answered and billed. */
  billed: unknown;
  /** Another request, also answerable. */
  other: unknown;
  /** Refused (never billed), with the status it answers. */
  refused: { body: unknown; status: number };
  /** Whatever the route needs beforehand (directory records …). */
  setup?(env: TestEnv, workspaceId: string): Promise<void>;
  /** Outside services over the offline ones. */
  ports?: Partial<Ports>;
}

/** A mail server that accepts every address at `mx.analytical.example` but a random probe. */
const ACCEPTING_VERIFIER: EmailVerifier = {
  verify: (request) =>
    Promise.resolve({
      kind: "valid",
      address: request.candidates[0],
      mailHosts: ["mx.analytical.example"],
      evidence: {
        mxHost: "mx.analytical.example",
        provider: "other",
        smtpCode: 250,
        enhancedStatus: "2.1.5",
        encrypted: true,
        certificateVerified: true,
        checkedAt: new Date(0).toISOString(),
      },
    }),
};

const ROUTES: BillableRoute[] = [
  {
    path: "/api/v1/name/parse",
    budget: "name_parse",
    idempotencyKey: "optional",
    billed: { name: "Ada Lovelace" },
    other: { name: "Grace Hopper" },
    refused: { body: { name: "Madonna" }, status: 400 },
  },
  {
    path: "/api/v1/name/parse/batch",
    budget: "name_parse_batch",
    idempotencyKey: "required",
    billed: { names: ["Ada Lovelace", "Grace Hopper"] },
    other: { names: ["Alan Turing"] },
    refused: { body: { names: [] }, status: 400 },
  },
  {
    path: "/api/v1/find",
    budget: "find",
    idempotencyKey: "optional",
    // Answered from the directory: a recently verified address, no SMTP.
    billed: { name: "Ada Lovelace", company: "analytical.example" },
    other: { name: "Charles Babbage", company: "https://www.analytical.example/team" },
    refused: { body: { name: "Madonna", company: "analytical.example" }, status: 200 },
    setup: async (env) => {
      for (const [given, surname] of [["Ada", "Lovelace"], ["Charles", "Babbage"]]) {
        await recordVerifiedEmail(env, {
          fullName: `${given} ${surname}`,
          given,
          surname,
          domain: "analytical.example",
          companyName: "Analytical Engines",
          address: `${given}.${surname}@analytical.example`.toLowerCase(),
          status: "valid",
          verifiedAt: new Date(env.clock.now()),
        });
      }
    },
  },
  {
    path: "/api/v1/network-search",
    budget: "network_search",
    idempotencyKey: "optional",
    // Answered from the directory: people with a profile URL, no web-search provider.
    billed: { firstName: "Ada", lastName: "Lovelace" },
    other: { firstName: "Charles", lastName: "Babbage", company: "Analytical Engines" },
    refused: { body: { firstName: "Ada", lastName: "  " }, status: 400 },
    setup: (env) => importProfiles(env),
  },
  {
    path: "/api/v1/enrich/email",
    budget: "enrich",
    idempotencyKey: "optional",
    // Answered from the directory's records, no reverse-lookup source.
    billed: { email: "ada.lovelace@analytical.example" },
    other: { email: "  Charles.Babbage@Analytical.example " },
    refused: { body: { email: "not an address" }, status: 200 },
    setup: (env) => importProfiles(env),
  },
  {
    path: "/api/v1/verify",
    budget: "find",
    idempotencyKey: "optional",
    billed: { email: "ada.lovelace@analytical.example" },
    other: { email: "  Charles.Babbage@Analytical.example " },
    refused: { body: { email: "not an address" }, status: 200 },
    ports: { verifier: ACCEPTING_VERIFIER },
  },
  {
    path: "/api/v1/domain-search",
    budget: "domain_search",
    idempotencyKey: "optional",
    // Pages with a recently verified address of the directory (billed); free mail is refused.
    billed: { domain: "analytical.example" },
    other: { domain: "https://analytical.example/team", limit: 1 },
    refused: { body: { domain: "gmail.com" }, status: 200 },
    setup: async (env) => {
      for (const [given, surname] of [["Ada", "Lovelace"], ["Charles", "Babbage"]]) {
        await recordVerifiedEmail(env, {
          fullName: `${given} ${surname}`,
          given,
          surname,
          domain: "analytical.example",
          companyName: "Analytical Engines",
          address: `${given}.${surname}@analytical.example`.toLowerCase(),
          status: "valid",
          verifiedAt: new Date(env.clock.now()),
        });
      }
    },
  },
];

function post(env: TestEnv, path: string, body: unknown, headers: Record<string, string>) {
  return env.app.request(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** The answer without the fields that differ between a first answer and its replay. */
function withoutBilling(data: Record<string, unknown>): Record<string, unknown> {
  const { charged: _c, pointsCharged: _p, creditsCharged: _cc, replay: _r, balance: _b, ...rest } =
    data;
  if (Array.isArray(rest.results)) {
    rest.results = (rest.results as { data?: Record<string, unknown> }[]).map((row) =>
      row.data ? { data: withoutBilling(row.data) } : row
    );
  }
  return rest;
}

for (const route of ROUTES) {
  Deno.test(`billable route ${route.path}: the shared billing suite`, DB_TEST, async (t) => {
    const env = await createTestEnv({
      config: {
        rateLimits: { ...DEFAULT_RATE_LIMITS, [route.budget]: { limit: 20, windowSeconds: 60 } },
      },
      ports: route.ports,
    });
    try {
      const ws = await createTestWorkspace(env, 1000);
      await route.setup?.(env, ws.workspaceId);
      let keyCounter = 0;
      const freshKey = () => `suite-${++keyCounter}`;
      const call = (body: unknown, key?: string, headers: Record<string, string> = {}) =>
        post(env, route.path, body, {
          ...bearer(ws.apiKey) as Record<string, string>,
          ...(key ? { "Idempotency-Key": key } : {}),
          ...headers,
        });
      const charges = () => countCharges(env, ws.workspaceId);

      await t.step("401 before any work: no key, a bad key, even with a bad body", async () => {
        const before = await charges();
        for (
          const headers of [
            {},
            bearer("svc_sk_" + "0".repeat(48)) as Record<string, string>,
          ]
        ) {
          for (const body of [route.billed, { nonsense: true }]) {
            const res = await post(env, route.path, body, { ...headers, "Idempotency-Key": "k" });
            assert.equal(res.status, 401);
            assert.equal((await res.json()).error.code, "unauthenticated");
          }
        }
        assert.equal(await charges(), before);
      });

      await t.step("a refusal is not billed", async () => {
        const before = await charges();
        const res = await call(route.refused.body, freshKey());
        assert.equal(res.status, route.refused.status);
        const body = await res.json();
        if (res.status === 200) {
          assert.equal(body.data.charged, false);
          assert.equal(body.data.pointsCharged, 0);
        }
        assert.equal(await charges(), before);
      });

      await t.step(
        "a wrong or missing Content-Type is 400 validation_error, not billed",
        async () => {
          const before = await charges();
          for (const contentType of ["text/plain", "application/x-www-form-urlencoded", null]) {
            const headers: Record<string, string> = {
              ...bearer(ws.apiKey) as Record<string, string>,
              "Idempotency-Key": freshKey(),
            };
            if (contentType) headers["Content-Type"] = contentType;
            const res = await env.app.request(route.path, {
              method: "POST",
              headers,
              body: JSON.stringify(route.billed),
            });
            assert.equal(res.status, 400, String(contentType));
            assert.deepEqual(withoutRequestId(await res.json()), {
              error: { code: "validation_error", message: "Content-Type must be application/json" },
            });
          }
          assert.equal(await charges(), before);
        },
      );

      const key = freshKey();
      let first: Record<string, unknown> = {};
      await t.step("billed once; the replay is free and identical", async () => {
        const before = await charges();
        const res = await call(route.billed, key);
        assert.equal(res.status, 200);
        first = (await res.json()).data;
        assert.equal((first as { replay: boolean }).replay, false);
        assert.ok((first as { pointsCharged: number }).pointsCharged > 0);
        const afterFirst = await charges();
        assert.ok(afterFirst > before);

        const again = await call(route.billed, key);
        assert.equal(again.status, 200);
        const replay = (await again.json()).data;
        assert.equal(replay.replay, true);
        assert.equal(replay.pointsCharged, 0);
        if ("charged" in replay) assert.equal(replay.charged, false);
        if ("creditsCharged" in replay) assert.equal(replay.creditsCharged, 0);
        assert.deepEqual(withoutBilling(replay), withoutBilling(first));
        assert.equal(await charges(), afterFirst);
      });

      await t.step("a changed body under the same key is 409 idempotency_conflict", async () => {
        const before = await charges();
        const res = await call(route.other, key);
        assert.equal(res.status, 409);
        assert.equal((await res.json()).error.code, "idempotency_conflict");
        assert.equal(await charges(), before);
      });

      await t.step("concurrent requests under one new key are charged once", async () => {
        const before = await charges();
        const concurrentKey = freshKey();
        const answers = await Promise.all(
          Array.from({ length: 5 }, () => call(route.other, concurrentKey)),
        );
        const bodies = await Promise.all(answers.map((res) => res.json()));
        const statuses = answers.map((res) => res.status);
        for (const [i, status] of statuses.entries()) {
          assert.ok(
            status === 200 ||
              (status === 409 && bodies[i].error.code === "idempotency_in_progress"),
            `${status} ${JSON.stringify(bodies[i])}`,
          );
        }
        const billedAnswers = bodies.filter((b) => b.data && b.data.pointsCharged > 0);
        assert.equal(billedAnswers.length, 1);
        const after = await charges();
        // A batch's rows share chunk postings: count its answered units instead of postings.
        assert.ok(after > before);
        const again = await call(route.other, concurrentKey);
        assert.equal((await again.json()).data.pointsCharged, 0);
        assert.equal(await charges(), after);
      });

      await t.step("429 is never billed", async () => {
        const before = await charges();
        const statuses: number[] = [];
        for (let i = 0; i < 10; i++) {
          const res = await call(route.billed, freshKey());
          statuses.push(res.status);
          if (res.status === 429) {
            const body = await res.json();
            assert.equal(body.error.code, "rate_limited");
            assert.ok(Number(res.headers.get("retry-after")) >= 1);
          } else await res.body?.cancel();
        }
        assert.ok(statuses.includes(429));
        const answered = statuses.filter((s) => s === 200).length;
        const unitsPerCall = Array.isArray((route.billed as { names?: unknown[] }).names)
          ? (route.billed as { names: unknown[] }).names.length
          : 1;
        assert.equal(await charges(), before + answered * unitsPerCall);
      });
    } finally {
      await env.close();
    }
  });
}

Deno.test(
  "every JSON route: a JSON Content-Type in any RFC 9110 spelling is accepted, others refused",
  DB_TEST,
  async (t) => {
    // A verifier that accepts, so verify reaches a (billed) verdict as the other routes do.
    const env = await createTestEnv({ ports: { verifier: ACCEPTING_VERIFIER } });
    try {
      const ws = await createTestWorkspace(env, 1000);
      let keyCounter = 0;
      const headers = (contentType: string) => ({
        ...bearer(ws.apiKey) as Record<string, string>,
        "Idempotency-Key": `content-type-${++keyCounter}`,
        "Content-Type": contentType,
      });
      const accepted = [
        "application/json ; charset=utf-8",
        "application/json;\tcharset=UTF-8",
        'Application/JSON; charset="utf-8"',
        "application/json;",
      ];
      const refused = ["application/jsonx", "text/json", "application/json charset=utf-8"];
      for (const route of ROUTES) {
        await t.step(route.path, async () => {
          await route.setup?.(env, ws.workspaceId);
          for (const contentType of accepted) {
            const res = await env.app.request(route.path, {
              method: "POST",
              headers: headers(contentType),
              body: JSON.stringify(route.billed),
            });
            assert.equal(res.status, 200, contentType);
            assert.ok((await res.json()).data.pointsCharged > 0, contentType);
          }
          for (const contentType of refused) {
            const res = await env.app.request(route.path, {
              method: "POST",
              headers: headers(contentType),
              body: JSON.stringify(route.billed),
            });
            assert.equal(res.status, 400, contentType);
            assert.deepEqual(withoutRequestId(await res.json()), {
              error: { code: "validation_error", message: "Content-Type must be application/json" },
            });
          }
        });
      }
      await t.step("lead-search start", async () => {
        for (const contentType of accepted) {
          const res = await env.app.request("/api/v1/lead-search", {
            method: "POST",
            headers: headers(contentType),
            body: JSON.stringify({ filters: { jobTitle: ["Engineer"] }, count: 5 }),
          });
          // The first starts a run; the rest meet it (one active run per workspace).
          assert.ok([200, 409].includes(res.status), `${contentType}: ${res.status}`);
          if (res.status === 409) {
            assert.equal((await res.json()).error.code, "run_already_active");
          } else await res.body?.cancel();
        }
      });
      await t.step("lead-search cancel reads its body's Content-Type the same way", async () => {
        const cancel = (contentType: string) =>
          env.app.request("/api/v1/lead-search/runs/run_unknown/cancel", {
            method: "POST",
            headers: headers(contentType),
            body: "{}",
          });
        for (const contentType of accepted) {
          const res = await cancel(contentType);
          assert.equal(res.status, 404, contentType); // the body passed; no such run
          await res.body?.cancel();
        }
        for (const contentType of [...refused, "application/json-seq"]) {
          const res = await cancel(contentType);
          assert.equal(res.status, 400, contentType);
          assert.equal((await res.json()).error.message, "Content-Type must be application/json");
        }
      });
    } finally {
      await env.close();
    }
  },
);
