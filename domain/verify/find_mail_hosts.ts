/**
 * Where mail for a domain goes (RFC 5321 §5.1): its MX hosts by preference (ties keep the DNS
 * order); with no MX at all, the domain itself when it has an A/AAAA address. A null MX
 * (RFC 7505, a lone `.` exchange), NXDOMAIN, or neither MX nor address means no mail can go
 * there; a resolver failure is told apart from all of these.
 */
import type { DnsResolver } from "../providers/dns/port.ts";

export interface MailHost {
  /** The MX host name, or the domain itself on the A/AAAA fallback. */
  name: string;
  /** Its addresses when already known (the fallback asked them); else resolved when tried. */
  addresses?: string[];
}

export type MailHosts =
  | { kind: "hosts"; hosts: MailHost[] }
  | { kind: "unusable"; why: "nxdomain" | "null-mx" | "no-mail-host" }
  | { kind: "dns-error"; message: string };

function isNullExchange(exchange: string): boolean {
  return exchange === "" || exchange === ".";
}

export async function findMailHosts(
  dns: DnsResolver,
  domain: string,
  signal?: AbortSignal,
): Promise<MailHosts> {
  const mx = await dns.mx(domain, { signal });
  if (mx.kind === "error") return { kind: "dns-error", message: mx.message };
  if (mx.kind === "nxdomain") return { kind: "unusable", why: "nxdomain" };
  if (mx.kind === "records" && mx.records.length > 0) {
    const real = mx.records.filter((record) => !isNullExchange(record.exchange));
    // A null MX must stand alone; beside real hosts it is ignored.
    if (real.length === 0) return { kind: "unusable", why: "null-mx" };
    const sorted = [...real].sort((a, b) => a.preference - b.preference);
    const seen = new Set<string>();
    const hosts: MailHost[] = [];
    for (const record of sorted) {
      const name = record.exchange.toLowerCase().replace(/\.$/, "");
      if (seen.has(name)) continue;
      seen.add(name);
      hosts.push({ name });
    }
    return { kind: "hosts", hosts };
  }
  // No MX: the implicit MX is the domain itself, if it has an address.
  const addresses = await dns.addresses(domain, { signal });
  if (addresses.kind === "error") return { kind: "dns-error", message: addresses.message };
  if (addresses.kind === "records" && addresses.records.length > 0) {
    return { kind: "hosts", hosts: [{ name: domain, addresses: addresses.records }] };
  }
  return { kind: "unusable", why: "no-mail-host" };
}
