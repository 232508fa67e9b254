/**
 * One DNS question asked on the wire (RFC 1035): encoded and decoded with `dns-packet`, sent over
 * UDP (`node:dgram`, a fresh socket and a random id per question) and asked again over TCP when
 * the UDP answer is truncated. Unlike `Deno.resolveDns`, the answer's RCODE comes back as it was
 * sent, so NXDOMAIN (the name does not exist) is told apart from SERVFAIL or REFUSED (the server
 * could not answer).
 *
 * The question waits up to `timeoutMs` in all, whatever the servers do: it is re-sent over UDP
 * every `retransmitMs` (to the next server in turn), a server answering SERVFAIL/REFUSED gives
 * way to the next at once, and the first NOERROR or NXDOMAIN answer from any server decides. An
 * answer is taken only from a server asked, with the question's id and the question itself.
 */
import dgram from "node:dgram";
import { Buffer } from "node:buffer";
import dnsPacket from "dns-packet";

export interface NameServer {
  ipAddr: string;
  port: number;
}

export type QuestionType = "MX" | "A" | "AAAA";

export interface DnsRecord {
  name: string;
  type: string;
  // deno-lint-ignore no-explicit-any
  data: any;
}

export type ExchangeResult =
  /** A decisive answer: NOERROR (records may be empty) or NXDOMAIN. */
  | { kind: "answer"; rcode: "NOERROR" | "NXDOMAIN"; answers: DnsRecord[] }
  /** No decisive answer within the time: every server failed, or none answered. */
  | { kind: "error"; message: string };

export interface ExchangeOptions {
  servers: NameServer[];
  timeoutMs: number;
  /** Re-send over UDP after this long without an answer (default: a third of timeoutMs, ≤ 1 s). */
  retransmitMs?: number;
  signal?: AbortSignal;
}

interface DecodedPacket {
  id: number;
  type: string;
  flag_tc: boolean;
  rcode: string;
  questions?: { name: string; type: string }[];
  answers?: DnsRecord[];
}

/** EDNS0 payload size (the DNS Flag Day 2020 value): big enough for MX sets, no fragments. */
const UDP_PAYLOAD_SIZE = 1232;

function normalName(name: string): string {
  return name.toLowerCase().replace(/\.$/, "");
}

function encodeQuery(id: number, name: string, type: QuestionType): Uint8Array {
  return dnsPacket.encode({
    type: "query",
    id,
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ type, class: "IN", name }],
    additionals: [{ type: "OPT", name: ".", udpPayloadSize: UDP_PAYLOAD_SIZE }],
  });
}

function decode(bytes: Uint8Array): DecodedPacket | null {
  try {
    return dnsPacket.decode(Buffer.from(bytes)) as DecodedPacket;
  } catch {
    return null;
  }
}

function answersQuestion(
  packet: DecodedPacket,
  id: number,
  name: string,
  type: QuestionType,
): boolean {
  const question = packet.questions?.[0];
  return packet.type === "response" && packet.id === id && question !== undefined &&
    normalName(question.name) === normalName(name) && question.type === type;
}

function randomId(): number {
  return crypto.getRandomValues(new Uint16Array(1))[0];
}

function familyOf(server: NameServer): "udp4" | "udp6" {
  return server.ipAddr.includes(":") ? "udp6" : "udp4";
}

/** The question over TCP (RFC 7766): a 2-byte length, then the message; the same for the answer. */
async function askOverTcp(
  server: NameServer,
  name: string,
  type: QuestionType,
  signal: AbortSignal,
): Promise<DecodedPacket | null> {
  const id = randomId();
  const query = encodeQuery(id, name, type);
  const conn = await Deno.connect({ hostname: server.ipAddr, port: server.port, signal });
  const onAbort = () => conn.close();
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    const framed = new Uint8Array(2 + query.length);
    new DataView(framed.buffer).setUint16(0, query.length);
    framed.set(query, 2);
    await conn.write(framed);
    let received = new Uint8Array(0);
    const chunk = new Uint8Array(4096);
    while (true) {
      if (received.length >= 2) {
        const length = new DataView(received.buffer).getUint16(0);
        if (received.length >= 2 + length) {
          const packet = decode(received.subarray(2, 2 + length));
          return packet && answersQuestion(packet, id, name, type) ? packet : null;
        }
      }
      const read = await conn.read(chunk);
      if (read === null) return null;
      const next = new Uint8Array(received.length + read);
      next.set(received);
      next.set(chunk.subarray(0, read), received.length);
      received = next;
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    try {
      conn.close();
    } catch {
      // closed by the abort
    }
  }
}

export function exchange(
  name: string,
  type: QuestionType,
  options: ExchangeOptions,
): Promise<ExchangeResult> {
  const { servers, timeoutMs } = options;
  if (servers.length === 0) return Promise.resolve({ kind: "error", message: "no name server" });
  if (options.signal?.aborted) return Promise.resolve({ kind: "error", message: "aborted" });
  const retransmitMs = options.retransmitMs ?? Math.min(1000, Math.max(100, timeoutMs / 3));
  const id = randomId();
  const query = encodeQuery(id, name, type);

  return new Promise<ExchangeResult>((resolve) => {
    const controller = new AbortController();
    const sockets = new Map<"udp4" | "udp6", dgram.Socket>();
    /** Servers that answered SERVFAIL/REFUSED (or could not be sent to), with that answer. */
    const failed = new Map<number, string>();
    let next = 0;
    let done = false;
    let tcpInFlight = 0;

    const finish = (result: ExchangeResult) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      clearInterval(resend);
      options.signal?.removeEventListener("abort", onAbort);
      controller.abort();
      for (const socket of sockets.values()) {
        try {
          socket.close();
        } catch {
          // already closed
        }
      }
      resolve(result);
    };
    const failures = () =>
      [...new Set(failed.values())].join(", ") || `${type} query timed out after ${timeoutMs} ms`;
    const serverFailed = (index: number, why: string) => {
      failed.set(index, why);
      if (failed.size === servers.length && tcpInFlight === 0) {
        finish({ kind: "error", message: `${type} query: ${failures()}` });
      } else sendNext();
    };
    const onAbort = () => finish({ kind: "error", message: "aborted" });

    const accept = (index: number, packet: DecodedPacket) => {
      if (packet.rcode === "NOERROR" || packet.rcode === "NXDOMAIN") {
        finish({ kind: "answer", rcode: packet.rcode, answers: packet.answers ?? [] });
      } else serverFailed(index, packet.rcode);
    };

    const overTcp = (index: number) => {
      tcpInFlight++;
      askOverTcp(servers[index], name, type, controller.signal)
        .then((packet) => {
          tcpInFlight--;
          if (done) return;
          if (packet) accept(index, packet);
          else serverFailed(index, "a truncated answer and no TCP answer");
        })
        .catch((error) => {
          tcpInFlight--;
          if (!done) serverFailed(index, `TCP: ${(error as Error).name}`);
        });
    };

    const socketFor = (family: "udp4" | "udp6"): dgram.Socket => {
      let socket = sockets.get(family);
      if (socket) return socket;
      socket = dgram.createSocket(family);
      socket.on("error", () => {});
      socket.on("message", (message: Uint8Array, from: { address: string; port: number }) => {
        if (done) return;
        const index = servers.findIndex((server) =>
          server.port === from.port && normalAddress(server.ipAddr) === normalAddress(from.address)
        );
        if (index < 0 || failed.has(index)) return;
        const packet = decode(message);
        if (!packet || !answersQuestion(packet, id, name, type)) return;
        if (packet.flag_tc) overTcp(index);
        else accept(index, packet);
      });
      sockets.set(family, socket);
      return socket;
    };

    const sendTo = (index: number) => {
      const server = servers[index];
      try {
        socketFor(familyOf(server)).send(query, server.port, server.ipAddr, (error) => {
          if (error && !done) serverFailed(index, `send: ${error.name}`);
        });
      } catch (error) {
        serverFailed(index, `send: ${(error as Error).name}`);
      }
    };
    /** The next server in turn that has not failed. */
    function sendNext() {
      for (let tried = 0; tried < servers.length; tried++) {
        const index = next++ % servers.length;
        if (!failed.has(index)) return sendTo(index);
      }
    }

    const deadline = setTimeout(
      () => finish({ kind: "error", message: `${type} query: ${failures()}` }),
      timeoutMs,
    );
    const resend = setInterval(sendNext, retransmitMs);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    sendNext();
  });
}

function normalAddress(address: string): string {
  return address.toLowerCase().replace(/^::ffff:/, "");
}
