/**
 * The web app's Verify tool (`/app/tools/verify`) through `app.request`, its verifier a port that
 * answers as a mail server would: the verdict line, the checks, the mail setup and the SMTP
 * evidence, billed as `POST /api/v1/verify` (a verdict charged once, a replay free, bad syntax and
 * `unknown` free), listed on the tools index; the address never reaches the log.
 */
import assert from "node:assert/strict";
import type { Ports } from "../domain/context.ts";
import type { VerificationOutcome } from "../domain/verify/mod.ts";
import { createTestEnv, createTestWorkspace, DB_TEST } from "./harness.ts";
import { signedInMember, type WebResponse } from "./web_client.ts";

function cost(page: WebResponse) {
  const m =
    /class="tool-cost" data-charged="(\w+)" data-points-charged="(\d+)" data-replay="(\w+)" data-available="(\d+)"/
      .exec(page.text);
  assert.ok(m, "a cost panel");
  return { charged: m[1] === "true", pointsCharged: Number(m[2]), replay: m[3] === "true" };
}

const keyOf = (page: WebResponse) => /name="idempotencyKey" value="([^"]+)"/.exec(page.text)![1];

const EVIDENCE = {
  mxHost: "mx.acme.test",
  provider: "other" as const,
  smtpCode: 250,
  enhancedStatus: "2.1.5",
  encrypted: true,
  certificateVerified: true,
  checkedAt: "2026-12-02T09:30:00.000Z",
};

/** Accepts addresses at acme.test, greylists those at grey.test. */
const verifier: Ports["verifier"] = {
  verify: (request): Promise<VerificationOutcome> =>
    Promise.resolve(
      request.domain === "grey.test"
        ? {
          kind: "unavailable",
          why: "greylisted",
          evidence: { ...EVIDENCE, mxHost: "mx.grey.test", smtpCode: 451 },
          mailHosts: ["mx.grey.test"],
        }
        : {
          kind: "valid",
          address: request.candidates[0],
          evidence: EVIDENCE,
          mailHosts: ["mx.acme.test", "mx2.acme.test"],
        },
    ),
};

Deno.test("web tools: verify an address, read as a person reads it", DB_TEST, async () => {
  const env = await createTestEnv({ ports: { verifier } });
  try {
    const ws = await createTestWorkspace(env, 100);
    const member = await signedInMember(env, ws.workspaceId);
    const index = await member.get("/app/tools");
    assert.match(index.text, /href="\/app\/tools\/verify"/);
    assert.match(index.text, /3 points per verdict/);

    const form = await member.get("/app/tools/verify");
    assert.equal(form.status, 200);
    const fields = { idempotencyKey: keyOf(form), email: " Info@Acme.test " };
    const page = await member.post("/app/tools/verify", fields);
    assert.equal(page.status, 200);
    assert.match(page.text, /data-status="valid"/);
    assert.match(page.text, /Valid: the mailbox exists/);
    assert.match(page.text, /info@acme\.test/);
    assert.match(page.text, /<dt>Role mailbox<\/dt><dd>yes<\/dd>/);
    assert.match(page.text, /mx\.acme\.test, mx2\.acme\.test/);
    assert.match(page.text, /250 2\.1\.5/);
    assert.match(page.text, /over TLS/);
    assert.deepEqual(cost(page), { charged: true, pointsCharged: 3, replay: false });
    assert.equal(cost(await member.post("/app/tools/verify", fields)).replay, true);

    const typo = await member.post("/app/tools/verify", { email: "ada@gmial.com" });
    assert.match(typo.text, /Did you mean <strong class="mono">ada@gmail\.com<\/strong>/);

    const grey = await member.post("/app/tools/verify", { email: "ada@grey.test" });
    assert.match(grey.text, /data-status="unknown"/);
    assert.match(grey.text, /data-reason="greylisted"/);
    assert.match(grey.text, /data-reason="greylisted">Asked to wait<\/span>/);
    assert.match(grey.text, /come back later \(greylisting\)/);
    assert.deepEqual(cost(grey), { charged: false, pointsCharged: 0, replay: false });

    const malformed = await member.post("/app/tools/verify", { email: "not an address" });
    assert.match(malformed.text, /data-reason="invalid-syntax"/);
    assert.equal(cost(malformed).charged, false);

    const blank = await member.post("/app/tools/verify", { email: "  " });
    assert.equal(blank.status, 400);
    assert.match(blank.text, /Email address must not be blank/);

    const log = env.logLines.join("\n");
    for (const secret of ["info@acme", "gmial", "grey.test"]) {
      assert.ok(!log.includes(secret), `the log holds ${secret}`);
    }
  } finally {
    await env.close();
  }
});
