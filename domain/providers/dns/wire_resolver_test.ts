/**
 * The wire DNS adapter (dns-packet over UDP, TCP when truncated) against the fake DNS server on
 * 127.0.0.1: unlike `Deno.resolveDns` it tells NXDOMAIN, "no record of this type", SERVFAIL and
 * REFUSED apart, and waits for an answer as long as it was told to.
 */
import assert from "node:assert/strict";
import { startFakeDns } from "../../../tests/fakes/dns_server.ts";
import {
  assertContractAnswers,
  CONTRACT_ZONE,
} from "../../../tests/fakes/dns_resolver_contract.ts";
import { createWireResolver } from "./wire_resolver.ts";

const OPEN = { sanitizeOps: false, sanitizeResources: false };

const ZONE = {
  ...CONTRACT_ZONE,
  "servfail.test": { servfail: true },
  "refused.test": { refused: true },
  "slow.test": {
    a: ["127.0.0.3"],
    mx: [{ preference: 5, exchange: "mx.slow.test" }],
    delayMs: 1100,
  },
  "big.test": { truncate: true, mx: [{ preference: 1, exchange: "mx.big.test" }] },
};

Deno.test("wire resolver: records, null MX, empty, nxdomain, addresses", OPEN, async () => {
  const dns = await startFakeDns(ZONE);
  const resolver = createWireResolver({ servers: [dns.nameServer], timeoutMs: 500 });
  try {
    await assertContractAnswers(resolver);
    assert.deepEqual(await resolver.mx("MISSING.test."), { kind: "nxdomain" });
    assert.deepEqual(await resolver.addresses("txt.test"), { kind: "empty" });
    assert.deepEqual(await resolver.addresses("missing.test"), { kind: "nxdomain" });
    // One question per name and type: the "no MX" answer needs no A/AAAA/TXT follow-up.
    assert.equal(dns.queries.filter((q) => q.name === "amx.test").length, 1);
  } finally {
    await dns.close();
  }
});

Deno.test(
  "wire resolver: SERVFAIL, REFUSED and silence are errors, never nxdomain",
  OPEN,
  async () => {
    const dns = await startFakeDns(ZONE);
    const resolver = createWireResolver({ servers: [dns.nameServer], timeoutMs: 400 });
    try {
      for (const name of ["servfail.test", "refused.test", "hangs.test"]) {
        const mx = await resolver.mx(name);
        assert.equal(mx.kind, "error", `${name}: ${JSON.stringify(mx)}`);
        const addresses = await resolver.addresses(name);
        assert.equal(addresses.kind, "error", `${name}: ${JSON.stringify(addresses)}`);
      }
      const mx = await resolver.mx("servfail.test");
      assert.ok(mx.kind === "error" && /SERVFAIL/.test(mx.message), JSON.stringify(mx));
      const refused = await resolver.mx("refused.test");
      assert.ok(refused.kind === "error" && /REFUSED/.test(refused.message));

      const started = performance.now();
      const timedOut = await resolver.mx("hangs.test");
      const waited = performance.now() - started;
      assert.ok(timedOut.kind === "error" && /timed out/.test(timedOut.message));
      assert.ok(waited >= 380 && waited < 900, `waited ${waited} ms`);

      const controller = new AbortController();
      controller.abort();
      assert.equal(
        (await resolver.mx("example.test", { signal: controller.signal })).kind,
        "error",
      );
    } finally {
      await dns.close();
    }
  },
);

Deno.test("wire resolver: a second server answers when the first fails", OPEN, async () => {
  const broken = await startFakeDns({ "example.test": { servfail: true } });
  const good = await startFakeDns(ZONE);
  const resolver = createWireResolver({
    servers: [broken.nameServer, good.nameServer],
    timeoutMs: 500,
  });
  try {
    const mx = await resolver.mx("example.test");
    assert.equal(mx.kind, "records");
    assert.equal(broken.queries.length, 1);
  } finally {
    await broken.close();
    await good.close();
  }
});

Deno.test("wire resolver: waits up to timeoutMs for a slow answer", OPEN, async () => {
  const dns = await startFakeDns(ZONE);
  const resolver = createWireResolver({ servers: [dns.nameServer], timeoutMs: 3000 });
  try {
    const started = performance.now();
    assert.deepEqual(await resolver.addresses("slow.test"), {
      kind: "records",
      records: ["127.0.0.3"],
    });
    const waited = performance.now() - started;
    assert.ok(waited >= 1000 && waited < 2500, `waited ${waited} ms`);
    assert.deepEqual(await resolver.mx("slow.test"), {
      kind: "records",
      records: [{ preference: 5, exchange: "mx.slow.test" }],
    });
  } finally {
    await dns.close();
  }
});

Deno.test("wire resolver: a truncated UDP answer is asked again over TCP", OPEN, async () => {
  const dns = await startFakeDns(ZONE);
  const resolver = createWireResolver({ servers: [dns.nameServer], timeoutMs: 1000 });
  try {
    assert.deepEqual(await resolver.mx("big.test"), {
      kind: "records",
      records: [{ preference: 1, exchange: "mx.big.test" }],
    });
    assert.deepEqual(
      dns.queries.filter((q) => q.name === "big.test").map((q) => q.transport),
      ["udp", "tcp"],
    );
  } finally {
    await dns.close();
  }
});
