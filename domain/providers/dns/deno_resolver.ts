/**
 * The real DNS adapter: `Deno.resolveDns` against the system resolver or one name server
 * (`VERIFY_DNS_SERVER`), every query bounded by `timeoutMs` and by the caller's signal.
 *
 * `Deno.resolveDns` raises the same `NotFound` for NXDOMAIN, for "no record of this type" and
 * for SERVFAIL (measured under Deno 2.9: the error carries nothing else). So after an MX
 * `NotFound` the adapter asks A, AAAA and TXT of the name: any record there means the name
 * exists without MX (`empty`), none means `nxdomain`. A SERVFAIL is therefore read as
 * `nxdomain`; only a timeout or another error becomes `{ kind: "error" }`.
 */
import type { DnsAnswer, DnsQueryOptions, DnsResolver, MxRecord } from "./port.ts";

export interface DenoResolverOptions {
  /** One name server for every query; null → the system resolver. */
  nameServer: { ipAddr: string; port: number } | null;
  /** The longest wait for one answer. */
  timeoutMs: number;
}

interface RecordMap {
  MX: Deno.MxRecord;
  A: string;
  AAAA: string;
  TXT: string[];
}

type Lookup<T> =
  | { kind: "records"; records: T[] }
  | { kind: "not-found" }
  | { kind: "error"; message: string };

/** Strips the trailing dot of a DNS name; the root (`.`) becomes "". */
export function stripTrailingDot(name: string): string {
  return name.endsWith(".") ? name.slice(0, -1) : name;
}

export function createDenoResolver(options: DenoResolverOptions): DnsResolver {
  async function lookup<T extends keyof RecordMap>(
    name: string,
    type: T,
    queryOptions: DnsQueryOptions | undefined,
  ): Promise<Lookup<RecordMap[T]>> {
    const outer = queryOptions?.signal;
    if (outer?.aborted) return { kind: "error", message: "aborted" };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), options.timeoutMs);
    const onAbort = () => controller.abort();
    outer?.addEventListener("abort", onAbort, { once: true });
    try {
      const records = await Deno.resolveDns(name, type, {
        ...(options.nameServer ? { nameServer: options.nameServer } : {}),
        signal: controller.signal,
      });
      return { kind: "records", records: records as RecordMap[T][] };
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return { kind: "not-found" };
      if (controller.signal.aborted) {
        return { kind: "error", message: outer?.aborted ? "aborted" : `${type} query timed out` };
      }
      return { kind: "error", message: `${type} query failed: ${(error as Error).name}` };
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    }
  }

  return {
    async mx(domain, queryOptions): Promise<DnsAnswer<MxRecord>> {
      const answer = await lookup(domain, "MX", queryOptions);
      if (answer.kind === "error") return answer;
      if (answer.kind === "records") {
        if (answer.records.length === 0) return { kind: "empty" };
        return {
          kind: "records",
          records: answer.records.map((record) => ({
            preference: record.preference,
            exchange: stripTrailingDot(record.exchange),
          })),
        };
      }
      // NotFound: NXDOMAIN, or a name without MX. Any other record tells the name exists.
      const others = await Promise.all([
        lookup(domain, "A", queryOptions),
        lookup(domain, "AAAA", queryOptions),
        lookup(domain, "TXT", queryOptions),
      ]);
      if (others.some((other) => other.kind === "records" && other.records.length > 0)) {
        return { kind: "empty" };
      }
      const failed = others.find((other) => other.kind === "error");
      if (failed?.kind === "error") return failed;
      return { kind: "nxdomain" };
    },

    async addresses(host, queryOptions): Promise<DnsAnswer<string>> {
      const [v4, v6] = await Promise.all([
        lookup(host, "A", queryOptions),
        lookup(host, "AAAA", queryOptions),
      ]);
      const records = [
        ...(v4.kind === "records" ? v4.records : []),
        ...(v6.kind === "records" ? v6.records : []),
      ];
      if (records.length > 0) return { kind: "records", records };
      if (v4.kind === "error") return v4;
      if (v6.kind === "error") return v6;
      // Deno cannot tell NXDOMAIN from "no address" here; either way there is nothing to reach.
      return { kind: "empty" };
    },
  };
}
