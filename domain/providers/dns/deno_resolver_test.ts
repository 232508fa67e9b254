/**
 * The Deno DNS adapter against the fake DNS server on 127.0.0.1: MX with trailing dots
 * stripped, null MX, "no MX" told apart from NXDOMAIN, addresses IPv4 first, and a timeout
 * as an error (never as NXDOMAIN).
 */
import assert from "node:assert/strict";
import { startFakeDns } from "../../../tests/fakes/dns_server.ts";
import {
  assertContractAnswers,
  CONTRACT_ZONE,
} from "../../../tests/fakes/dns_resolver_contract.ts";
import { createDenoResolver } from "./deno_resolver.ts";

const OPEN = { sanitizeOps: false, sanitizeResources: false };

Deno.test("deno resolver: MX, null MX, empty, nxdomain, addresses, timeout", OPEN, async () => {
  const dns = await startFakeDns(CONTRACT_ZONE);
  const resolver = createDenoResolver({ nameServer: dns.nameServer, timeoutMs: 300 });
  try {
    await assertContractAnswers(resolver);
    assert.deepEqual(await resolver.addresses("missing.test"), { kind: "empty" });

    const started = performance.now();
    const timedOut = await resolver.mx("hangs.test");
    assert.equal(timedOut.kind, "error");
    assert.ok(performance.now() - started < 1000);
    assert.equal((await resolver.addresses("hangs.test")).kind, "error");

    const controller = new AbortController();
    controller.abort();
    assert.equal((await resolver.mx("example.test", { signal: controller.signal })).kind, "error");
  } finally {
    await dns.close();
  }
});

Deno.test(
  "deno resolver (the fallback): SERVFAIL and REFUSED read as nxdomain (measured limit)",
  OPEN,
  async () => {
    // Pins why the service resolves on the wire itself: Deno.resolveDns raises the same
    // NotFound, with the same message, for NXDOMAIN, an empty answer, SERVFAIL and REFUSED.
    const dns = await startFakeDns({
      "servfail.test": { servfail: true },
      "refused.test": { refused: true },
      "slow.test": { a: ["127.0.0.1"], delayMs: 2100 },
    });
    const resolver = createDenoResolver({ nameServer: dns.nameServer, timeoutMs: 5000 });
    try {
      assert.deepEqual(await resolver.mx("servfail.test"), { kind: "nxdomain" });
      assert.deepEqual(await resolver.mx("refused.test"), { kind: "nxdomain" });
      // And its resolver gives up after ~2 s whatever the timeout asked (an answer due at 2.1 s).
      const started = performance.now();
      assert.equal((await resolver.addresses("slow.test")).kind, "error");
      assert.ok(performance.now() - started < 3000);
    } finally {
      await dns.close();
    }
  },
);
