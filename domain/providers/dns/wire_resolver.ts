/**
 * The DNS adapter the engine uses wherever UDP sockets exist: its own stub resolver on the wire
 * (`dns_exchange.ts`), asking the configured server (`VERIFY_DNS_SERVER`) or the system's
 * (`/etc/resolv.conf`). It reads each answer's RCODE: NXDOMAIN → `nxdomain`, NOERROR without a
 * record of the type → `empty`, SERVFAIL, REFUSED or no answer within `timeoutMs` → `error`.
 * CNAME chains in an answer are followed to the records of the asked type.
 */
import { type DnsRecord, exchange, type NameServer, type QuestionType } from "./dns_exchange.ts";
import type { DnsAnswer, DnsQueryOptions, DnsResolver, MxRecord } from "./port.ts";

export interface WireResolverOptions {
  /** Asked in turn; at least one. */
  servers: NameServer[];
  /** The longest wait for one answer (`VERIFY_TIMEOUT_SECONDS`). */
  timeoutMs: number;
}

function normalName(name: string): string {
  return name.toLowerCase().replace(/\.$/, "");
}

/** The records of `type` owned by `name` or by a name it is a CNAME of, in answer order. */
export function recordsOf(name: string, type: QuestionType, answers: DnsRecord[]): DnsRecord[] {
  const owners = new Set([normalName(name)]);
  // A chain longer than the answer itself is a loop; stop there.
  for (let step = 0; step <= answers.length; step++) {
    const before = owners.size;
    for (const record of answers) {
      if (record.type === "CNAME" && owners.has(normalName(record.name))) {
        owners.add(normalName(String(record.data)));
      }
    }
    if (owners.size === before) break;
  }
  return answers.filter((record) => record.type === type && owners.has(normalName(record.name)));
}

export function createWireResolver(options: WireResolverOptions): DnsResolver {
  async function ask<T>(
    name: string,
    type: QuestionType,
    read: (record: DnsRecord) => T,
    queryOptions: DnsQueryOptions | undefined,
  ): Promise<DnsAnswer<T>> {
    const result = await exchange(name, type, {
      servers: options.servers,
      timeoutMs: options.timeoutMs,
      signal: queryOptions?.signal,
    });
    if (result.kind === "error") return result;
    if (result.rcode === "NXDOMAIN") return { kind: "nxdomain" };
    const records = recordsOf(name, type, result.answers).map(read);
    return records.length > 0 ? { kind: "records", records } : { kind: "empty" };
  }

  return {
    mx(domain, queryOptions): Promise<DnsAnswer<MxRecord>> {
      return ask(domain, "MX", (record) => ({
        preference: Number(record.data.preference),
        // The root (a null MX) decodes as "." or "": both become "".
        exchange: String(record.data.exchange ?? "").replace(/\.$/, ""),
      }), queryOptions);
    },

    async addresses(host, queryOptions): Promise<DnsAnswer<string>> {
      const [v4, v6] = await Promise.all([
        ask(host, "A", (record) => String(record.data), queryOptions),
        ask(host, "AAAA", (record) => String(record.data), queryOptions),
      ]);
      const records = [
        ...(v4.kind === "records" ? v4.records : []),
        ...(v6.kind === "records" ? v6.records : []),
      ];
      if (records.length > 0) return { kind: "records", records };
      // NXDOMAIN is about the name, whatever the type: the host does not exist.
      if (v4.kind === "nxdomain" || v6.kind === "nxdomain") return { kind: "nxdomain" };
      if (v4.kind === "error") return v4;
      if (v6.kind === "error") return v6;
      return { kind: "empty" };
    },
  };
}
