/**
 * The system's name servers, as `/etc/resolv.conf` lists them (`nameserver ADDRESS` lines, at
 * most three as glibc reads them, port 53). A scoped IPv6 address (`fe80::1%eth0`) is skipped.
 * No file, no permission or no usable line → an empty list (the caller falls back to
 * `Deno.resolveDns`, which knows the platform's own ways).
 */
import ipaddr from "ipaddr.js";
import type { NameServer } from "./dns_exchange.ts";

export const RESOLV_CONF = "/etc/resolv.conf";

function isPlainAddress(text: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(text) ||
    (!text.includes("%") && ipaddr.IPv6.isValid(text));
}

/** The `nameserver` lines of a resolv.conf text. */
export function parseResolvConf(text: string): NameServer[] {
  const servers: NameServer[] = [];
  for (const line of text.split("\n")) {
    const match = /^\s*nameserver\s+(\S+)/.exec(line);
    if (!match || !isPlainAddress(match[1])) continue;
    servers.push({ ipAddr: match[1], port: 53 });
    if (servers.length === 3) break;
  }
  return servers;
}

export async function systemNameServers(path = RESOLV_CONF): Promise<NameServer[]> {
  try {
    return parseResolvConf(await Deno.readTextFile(path));
  } catch {
    return [];
  }
}
