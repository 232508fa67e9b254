/**
 * Whether a mail host's address may be dialled: only globally routable unicast addresses
 * (`ipaddr.js` range `unicast`, after an IPv4-mapped IPv6 address is read as its IPv4). Loopback,
 * RFC 1918 private, link-local (169.254/16 with the cloud metadata service, fe80::/10),
 * unique-local (fc00::/7), CGNAT (100.64/10), multicast, broadcast, unspecified, documentation,
 * benchmarking and other reserved ranges, and the IPv6 forms that carry an IPv4 address inside
 * (6to4, Teredo, …) are refused, so an MX record cannot point the verifier at an internal host.
 * IPv6 must also lie in 2000::/3 (so `::a00:1`, an IPv4-compatible form, is refused). A NAT64
 * address (64:ff9b::/96) is judged by the IPv4 address it carries.
 * `VERIFY_ALLOW_PRIVATE_ADDRESSES=true` lifts the check (test and fake setups on 127.0.0.x).
 */
import ipaddr from "ipaddr.js";

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3") as [ipaddr.IPv6, number];

export function isPublicAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return false;
  }
  const range = parsed.range();
  if (parsed.kind() === "ipv4") return range === "unicast";
  const v6 = parsed as ipaddr.IPv6;
  if (range === "rfc6052") {
    return ipaddr.fromByteArray(v6.toByteArray().slice(12)).range() === "unicast";
  }
  // Global unicast IPv6 is 2000::/3; ::/8 (IPv4-compatible and the like) is not routable.
  return range === "unicast" && v6.match(GLOBAL_UNICAST_V6);
}
