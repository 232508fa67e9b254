import assert from "node:assert/strict";
import { startFakeDns } from "../../../tests/fakes/dns_server.ts";
import { createDnsResolver } from "./create_dns_resolver.ts";

const OPEN = { sanitizeOps: false, sanitizeResources: false };

Deno.test(
  "dns resolver choice: wire where UDP works, Deno.resolveDns otherwise",
  OPEN,
  async () => {
    const dns = await startFakeDns({ "servfail.test": { servfail: true } });
    try {
      const wire = await createDnsResolver({ nameServer: dns.nameServer, timeoutMs: 500 });
      assert.equal(wire.client, "wire");
      assert.deepEqual(wire.servers, [dns.nameServer]);
      assert.equal((await wire.resolver.mx("servfail.test")).kind, "error");

      const system = await createDnsResolver({
        nameServer: null,
        timeoutMs: 500,
        systemServers: () => Promise.resolve([dns.nameServer]),
      });
      assert.equal(system.client, "wire");
      assert.equal((await system.resolver.mx("servfail.test")).kind, "error");

      const deploy = await createDnsResolver({
        nameServer: dns.nameServer,
        timeoutMs: 500,
        denoOnly: true,
      });
      assert.equal(deploy.client, "deno");
      // The fallback's documented limit: SERVFAIL reads as NXDOMAIN.
      assert.equal((await deploy.resolver.mx("servfail.test")).kind, "nxdomain");

      const noUdp = await createDnsResolver({
        nameServer: dns.nameServer,
        timeoutMs: 500,
        udpAvailable: () => Promise.resolve(false),
      });
      assert.equal(noUdp.client, "deno");
      assert.match(noUdp.fallbackReason ?? "", /udp4/);

      const noServers = await createDnsResolver({
        nameServer: null,
        timeoutMs: 500,
        systemServers: () => Promise.resolve([]),
      });
      assert.equal(noServers.client, "deno");
    } finally {
      await dns.close();
    }
  },
);
