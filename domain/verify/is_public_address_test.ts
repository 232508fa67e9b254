import assert from "node:assert/strict";
import { isPublicAddress } from "./is_public_address.ts";

Deno.test("public addresses: only global unicast may be dialled", () => {
  for (const address of ["8.8.8.8", "203.0.114.7", "2001:4860:4860::8888", "::ffff:8.8.8.8"]) {
    assert.equal(isPublicAddress(address), true, address);
  }
  assert.equal(isPublicAddress("64:ff9b::808:808"), true, "NAT64 of a global address");
  const refused = [
    "127.0.0.1", // loopback
    "127.1.2.3",
    "10.0.0.1", // RFC 1918
    "172.16.5.4",
    "192.168.0.10",
    "169.254.169.254", // link-local: cloud metadata
    "100.64.0.1", // CGNAT
    "0.0.0.0", // unspecified
    "224.0.0.1", // multicast
    "255.255.255.255", // broadcast
    "192.0.2.1", // documentation
    "198.18.0.1", // benchmarking
    "240.0.0.1", // reserved
    "::1",
    "::",
    "fe80::1",
    "fc00::1", // unique-local
    "fd12:3456::1",
    "ff02::1",
    "::ffff:127.0.0.1", // IPv4-mapped loopback
    "::ffff:10.0.0.1",
    "::ffff:a00:1",
    "::a00:1", // IPv4-compatible (deprecated)
    "::ffff:0:10",
    "64:ff9b::a00:1", // NAT64 of 10.0.0.1
    "2002:7f00:1::", // 6to4 of 127.0.0.1
    "2001:db8::1", // documentation
    "not an address",
    "",
  ];
  for (const address of refused) assert.equal(isPublicAddress(address), false, address);
});
