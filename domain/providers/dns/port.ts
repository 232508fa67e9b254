/**
 * DNS as a port: the verification engine asks for MX records and for the addresses of hosts.
 * The real adapter uses `Deno.resolveDns` (optionally against `VERIFY_DNS_SERVER`) with a
 * timeout; tests use a fake DNS server speaking the real protocol on 127.0.0.1.
 */

export interface MxRecord {
  preference: number;
  /** Host name without a trailing dot; `.`/empty means a null MX (RFC 7505). */
  exchange: string;
}

export type DnsAnswer<T> =
  | { kind: "records"; records: T[] }
  /** The name does not exist (NXDOMAIN). */
  | { kind: "nxdomain" }
  /** The name exists but has no record of this type. */
  | { kind: "empty" }
  /** The resolver failed (timeout, SERVFAIL, refused). */
  | { kind: "error"; message: string };

/** Per-query options: `signal` ends the query early (the caller's whole-lookup deadline). */
export interface DnsQueryOptions {
  signal?: AbortSignal;
}

export interface DnsResolver {
  /** MX records in the order DNS gave them (not sorted). */
  mx(domain: string, options?: DnsQueryOptions): Promise<DnsAnswer<MxRecord>>;
  /** A and AAAA records of a host, IPv4 first. */
  addresses(host: string, options?: DnsQueryOptions): Promise<DnsAnswer<string>>;
}
