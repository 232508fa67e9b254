/**
 * A fake authoritative DNS server for tests, speaking the real protocol (npm `dns2`) on
 * 127.0.0.1, UDP and TCP on the same port, so `Deno.resolveDns(name, type, { nameServer:
 * { ipAddr: "127.0.0.1", port } })` and the engine's `VERIFY_DNS_SERVER` reach it.
 *
 * ```ts
 * const dns = await startFakeDns({
 *   "example.test": { mx: [{ preference: 10, exchange: "mx1.example.test" }] },
 *   "mx1.example.test": { a: ["127.0.0.1"] },
 *   "nomail.test": { mx: [{ preference: 0, exchange: "." }] }, // null MX (RFC 7505)
 *   "broken.test": { servfail: true },
 *   "hangs.test": { silent: true },
 * });
 * // VERIFY_DNS_SERVER=dns.address, or createDenoResolver({ nameServer: dns.nameServer, … })
 * await dns.close();
 * ```
 *
 * Names are matched case-insensitively, without a trailing dot. A name not in the zone answers
 * NXDOMAIN (rcode 3); a name in the zone without the asked type answers NOERROR with no
 * records (with an SOA in the authority section, as real servers do). `servfail` answers rcode 2
 * and `refused` rcode 5 to every query of that name; `silent` never answers (the client times
 * out); `delayMs` delays every answer of that name; `truncate` sets TC over UDP (no records) and
 * answers in full over TCP. Every query is recorded in `queries`, with its transport.
 *
 * Under `Deno.resolveDns`, NXDOMAIN, "no record of that type", SERVFAIL and REFUSED all raise
 * `NotFound` (measured, Deno 2.9.6; `domain/providers/dns/deno_resolver_test.ts` pins it); the
 * service's own wire resolver tells them apart.
 */
import dns2 from "dns2";

export interface FakeMx {
  preference: number;
  /** Host name; `"."` is a null MX. */
  exchange: string;
}

export interface FakeZoneEntry {
  mx?: FakeMx[];
  a?: string[];
  aaaa?: string[];
  /** TXT strings (e.g. an SPF record), one record each. */
  txt?: string[];
  /** Answer SERVFAIL to every query for this name. */
  servfail?: boolean;
  /** Answer REFUSED to every query for this name. */
  refused?: boolean;
  /** Over UDP, answer with the TC (truncated) bit and no records; over TCP, answer in full. */
  truncate?: boolean;
  /** Never answer queries for this name. */
  silent?: boolean;
  /** Wait this long before answering. */
  delayMs?: number;
}

/** Name (no trailing dot) → its records. */
export type FakeZone = Record<string, FakeZoneEntry>;

export interface FakeDnsQuery {
  name: string;
  /** `A`, `AAAA`, `MX`, or the numeric type as text. */
  type: string;
  transport: "udp" | "tcp";
}

export interface FakeDns {
  port: number;
  /** `127.0.0.1:PORT`, the form of `VERIFY_DNS_SERVER`. */
  address: string;
  /** The form of `Deno.resolveDns`'s `nameServer` option and of `VerifyConfig.dnsServer`. */
  nameServer: { ipAddr: string; port: number };
  /** Every query received, in order. */
  queries: FakeDnsQuery[];
  /** Replaces the whole zone. */
  setZone(zone: FakeZone): void;
  close(): Promise<void>;
}

const { Packet } = dns2;
const TYPE_NAMES: Record<number, string> = {
  [Packet.TYPE.A]: "A",
  [Packet.TYPE.AAAA]: "AAAA",
  [Packet.TYPE.MX]: "MX",
  [Packet.TYPE.TXT]: "TXT",
};

function normalize(name: string): string {
  return name.toLowerCase().replace(/\.$/, "");
}

function normalizeZone(zone: FakeZone): Map<string, FakeZoneEntry> {
  return new Map(Object.entries(zone).map(([name, entry]) => [normalize(name), entry]));
}

function answersFor(name: string, type: number, entry: FakeZoneEntry): dns2.Packet.Resource[] {
  const base = { name, class: Packet.CLASS.IN, ttl: 60 };
  if (type === Packet.TYPE.MX) {
    return (entry.mx ?? []).map((mx) => ({
      ...base,
      type,
      priority: mx.preference,
      exchange: mx.exchange === "." ? "" : mx.exchange.replace(/\.$/, ""),
    } as dns2.Packet.Resource));
  }
  if (type === Packet.TYPE.A) {
    return (entry.a ?? []).map((address) => ({ ...base, type, address } as dns2.Packet.Resource));
  }
  if (type === Packet.TYPE.AAAA) {
    return (entry.aaaa ?? []).map((
      address,
    ) => ({ ...base, type, address } as dns2.Packet.Resource));
  }
  if (type === Packet.TYPE.TXT) {
    return (entry.txt ?? []).map((data) => ({ ...base, type, data } as dns2.Packet.Resource));
  }
  return [];
}

function soaFor(name: string): dns2.Packet.Resource {
  return {
    name,
    type: Packet.TYPE.SOA,
    class: Packet.CLASS.IN,
    ttl: 60,
    primary: "ns.fake.test",
    admin: "hostmaster.fake.test",
    serial: 1,
    refresh: 3600,
    retry: 600,
    expiration: 86400,
    minimum: 60,
  } as dns2.Packet.Resource;
}

/** Starts the fake on 127.0.0.1 (UDP and TCP on one free port). */
export async function startFakeDns(zone: FakeZone = {}): Promise<FakeDns> {
  let names = normalizeZone(zone);
  const queries: FakeDnsQuery[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();

  const handler = (transport: "udp" | "tcp"): dns2.DnsHandler => (request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const question = request.questions[0];
    if (!question) {
      response.header.rcode = Packet.RCODE.FORMERR;
      send(response).catch(() => {});
      return;
    }
    const name = normalize(question.name);
    queries.push({ name, type: TYPE_NAMES[question.type] ?? String(question.type), transport });
    const entry = names.get(name);
    if (entry?.silent) return;
    response.header.aa = 1;
    if (!entry) {
      response.header.rcode = Packet.RCODE.NXDOMAIN;
      response.authorities.push(soaFor(name.split(".").slice(-1)[0] || name));
    } else if (entry.servfail) {
      response.header.rcode = Packet.RCODE.SERVFAIL;
    } else if (entry.refused) {
      response.header.aa = 0;
      response.header.rcode = Packet.RCODE.REFUSED;
    } else if (entry.truncate && transport === "udp") {
      response.header.tc = 1;
    } else {
      const answers = answersFor(question.name, question.type, entry);
      response.answers.push(...answers);
      if (answers.length === 0) response.authorities.push(soaFor(name));
    }
    const reply = () => send(response).catch(() => {});
    if (entry?.delayMs) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        reply();
      }, entry.delayMs);
      timers.add(timer);
    } else reply();
  };

  const udp = dns2.createUDPServer(handler("udp"));
  udp.on("requestError", () => {});
  udp.on("error", () => {});
  await udp.listen(0, "127.0.0.1");
  const port = udp.address().port;
  const tcp = dns2.createTCPServer(handler("tcp"));
  const sockets = new Set<{ destroy(): void }>();
  tcp.on("connection", (socket: { destroy(): void; once(e: string, f: () => void): void }) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  tcp.on("requestError", () => {});
  tcp.on("error", () => {});
  await new Promise<void>((resolve) => {
    // TCP on the same port when it is free (almost always); UDP alone otherwise.
    tcp.once("error", () => resolve());
    tcp.listen(port, "127.0.0.1", () => resolve());
  });

  return {
    port,
    address: `127.0.0.1:${port}`,
    nameServer: { ipAddr: "127.0.0.1", port },
    queries,
    setZone(next) {
      names = normalizeZone(next);
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const socket of sockets) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.listening ? tcp.close(() => resolve()) : resolve()),
      ]);
    },
  };
}
