import assert from "node:assert/strict";
import { coalesceByDomain } from "./coalesce_by_domain.ts";
import type { EmailVerifier, VerificationRequest } from "./email_verifier.ts";

const outcome = { kind: "unusable-domain", why: "nxdomain" } as const;

function recording() {
  const batches: VerificationRequest[][] = [];
  const verifier: EmailVerifier = {
    verify: () => Promise.reject(new Error("verify is not called through the batcher")),
    verifyBatch: (requests) => {
      batches.push(requests);
      return Promise.resolve(requests.map(() => outcome));
    },
  };
  return { batches, verifier };
}

const at = (domain: string, local: string) => ({ domain, candidates: [`${local}@${domain}`] });

Deno.test("coalesceByDomain: lookups arriving together at one domain are one batch", async () => {
  const { batches, verifier } = recording();
  const coalesced = coalesceByDomain(verifier, { windowMs: 20, maxRequests: 8 });
  const outcomes = await Promise.all([
    coalesced.verify(at("a.test", "x")),
    coalesced.verify(at("A.test", "y")),
    coalesced.verify(at("b.test", "z")),
  ]);
  assert.deepEqual(outcomes, [outcome, outcome, outcome]);
  assert.deepEqual(batches.map((b) => b.map((r) => r.candidates[0])).sort(), [
    ["x@a.test", "y@A.test"],
    ["z@b.test"],
  ]);
});

Deno.test("coalesceByDomain: a full batch goes at once; a failure reaches every caller", async () => {
  const { batches, verifier } = recording();
  const coalesced = coalesceByDomain(verifier, { windowMs: 10_000, maxRequests: 2 });
  await Promise.all([coalesced.verify(at("a.test", "x")), coalesced.verify(at("a.test", "y"))]);
  assert.equal(batches.length, 1);
  const failing = coalesceByDomain({
    verify: () => Promise.reject(new Error("unused")),
    verifyBatch: () => Promise.reject(new Error("engine down")),
  }, { windowMs: 5, maxRequests: 8 });
  const both = [failing.verify(at("a.test", "x")), failing.verify(at("a.test", "y"))];
  for (const answer of both) await assert.rejects(answer, /engine down/);
});

Deno.test("coalesceByDomain: a verifier without batches is used as it is", () => {
  const plain: EmailVerifier = { verify: () => Promise.resolve(outcome) };
  assert.equal(coalesceByDomain(plain, { windowMs: 5, maxRequests: 8 }), plain);
});
