/**
 * Chooses the engine's DNS adapter. The wire resolver (`wire_resolver.ts`) wherever UDP sockets
 * work: it asks `VERIFY_DNS_SERVER`, or the system's name servers from `/etc/resolv.conf`, and
 * tells SERVFAIL/REFUSED from NXDOMAIN and waits the whole `timeoutMs`. `Deno.resolveDns`
 * (`deno_resolver.ts`) is the fallback where it cannot run: on Deno Deploy (no UDP sockets),
 * where a UDP socket cannot be opened, or with no configured server and no readable
 * resolv.conf. The fallback's limits (measured, Deno 2.9.6): SERVFAIL and REFUSED read as
 * NXDOMAIN (→ `unusable-domain`), and its resolver gives up after ~2 s whatever `timeoutMs` says.
 */
import dgram from "node:dgram";
import { createDenoResolver } from "./deno_resolver.ts";
import type { NameServer } from "./dns_exchange.ts";
import type { DnsResolver } from "./port.ts";
import { systemNameServers } from "./system_name_servers.ts";
import { createWireResolver } from "./wire_resolver.ts";

export interface DnsResolverOptions {
  /** `VERIFY_DNS_SERVER`; null → the system's name servers. */
  nameServer: NameServer | null;
  timeoutMs: number;
  /** True on Deno Deploy: `Deno.resolveDns` without trying UDP. */
  denoOnly?: boolean;
  /** The system's name servers (tests); default: read `/etc/resolv.conf`. */
  systemServers?: () => Promise<NameServer[]>;
  /** Whether a UDP socket of this family can be opened (tests); default: try binding one. */
  udpAvailable?: (family: "udp4" | "udp6") => Promise<boolean>;
}

export interface ChosenDnsResolver {
  resolver: DnsResolver;
  client: "wire" | "deno";
  /** Why the fallback was taken; null for the wire resolver. */
  fallbackReason: string | null;
  /** The servers the wire resolver asks (empty for the fallback). */
  servers: NameServer[];
}

async function canBindUdp(family: "udp4" | "udp6"): Promise<boolean> {
  try {
    const socket = dgram.createSocket(family);
    return await new Promise<boolean>((resolve) => {
      socket.once("error", () => {
        resolve(false);
        try {
          socket.close();
        } catch {
          // never bound
        }
      });
      socket.bind(0, () => {
        socket.close();
        resolve(true);
      });
    });
  } catch {
    return false;
  }
}

export async function createDnsResolver(options: DnsResolverOptions): Promise<ChosenDnsResolver> {
  const fallback = (why: string): ChosenDnsResolver => ({
    resolver: createDenoResolver({ nameServer: options.nameServer, timeoutMs: options.timeoutMs }),
    client: "deno",
    fallbackReason: why,
    servers: [],
  });
  if (options.denoOnly) return fallback("Deno Deploy has no UDP sockets");
  const servers = options.nameServer
    ? [options.nameServer]
    : await (options.systemServers ?? systemNameServers)();
  if (servers.length === 0) {
    return fallback("no VERIFY_DNS_SERVER and no name server in resolv.conf");
  }
  const udpAvailable = options.udpAvailable ?? canBindUdp;
  const families = [...new Set(servers.map((s) => s.ipAddr.includes(":") ? "udp6" : "udp4"))];
  for (const family of families as ("udp4" | "udp6")[]) {
    if (!await udpAvailable(family)) return fallback(`no ${family} socket can be opened here`);
  }
  return {
    resolver: createWireResolver({ servers, timeoutMs: options.timeoutMs }),
    client: "wire",
    fallbackReason: null,
    servers,
  };
}
