import assert from "node:assert/strict";
import { parseResolvConf, systemNameServers } from "./system_name_servers.ts";

Deno.test("resolv.conf: nameserver lines, at most three, plain addresses only", async () => {
  const text = [
    "# generated",
    "search corp.example",
    "nameserver 10.255.255.53",
    "nameserver fe80::1%eth0",
    "nameserver 1.2.3",
    "  nameserver 2001:db8::53  # comment",
    "options timeout:2 attempts:3",
    "nameserver 192.0.2.53",
    "nameserver 192.0.2.54",
  ].join("\n");
  assert.deepEqual(parseResolvConf(text), [
    { ipAddr: "10.255.255.53", port: 53 },
    { ipAddr: "2001:db8::53", port: 53 },
    { ipAddr: "192.0.2.53", port: 53 },
  ]);
  assert.deepEqual(parseResolvConf(""), []);
  assert.deepEqual(await systemNameServers("/nonexistent/resolv.conf"), []);
});
