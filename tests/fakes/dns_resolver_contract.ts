/**
 * What every DNS adapter (`domain/providers/dns/`) answers alike, checked against the fake DNS
 * server: the records of a zone both adapter suites serve, MX with trailing dots stripped, a null
 * MX, "no record of this type" told apart from NXDOMAIN, addresses IPv4 first.
 */
import assert from "node:assert/strict";
import type { DnsResolver } from "../../domain/providers/dns/port.ts";

export const CONTRACT_ZONE = {
  "example.test": {
    mx: [
      { preference: 20, exchange: "mx2.example.test" },
      { preference: 10, exchange: "mx1.example.test." },
    ],
  },
  "mx1.example.test": { a: ["127.0.0.1", "127.0.0.2"], aaaa: ["::1"] },
  "v6only.test": { aaaa: ["::1"] },
  "nullmx.test": { mx: [{ preference: 0, exchange: "." }] },
  "amx.test": { a: ["127.0.0.1"] },
  "txt.test": { txt: ["v=spf1 -all"] },
  "hangs.test": { silent: true },
};

export async function assertContractAnswers(resolver: DnsResolver): Promise<void> {
  assert.deepEqual(await resolver.mx("example.test"), {
    kind: "records",
    records: [
      { preference: 20, exchange: "mx2.example.test" },
      { preference: 10, exchange: "mx1.example.test" },
    ],
  });
  assert.deepEqual(await resolver.mx("nullmx.test"), {
    kind: "records",
    records: [{ preference: 0, exchange: "" }],
  });
  assert.deepEqual(await resolver.mx("amx.test"), { kind: "empty" });
  assert.deepEqual(await resolver.mx("txt.test"), { kind: "empty" });
  assert.deepEqual(await resolver.mx("missing.test"), { kind: "nxdomain" });
  assert.deepEqual(await resolver.addresses("mx1.example.test"), {
    kind: "records",
    records: ["127.0.0.1", "127.0.0.2", "::1"],
  });
  assert.deepEqual(await resolver.addresses("v6only.test"), {
    kind: "records",
    records: ["::1"],
  });
}
