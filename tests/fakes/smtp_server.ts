/**
 * A fake SMTP server for tests (npm `smtp-server`), speaking real SMTP on loopback addresses:
 * one listener per host, all on the same port (the whole 127.0.0.0/8 is loopback on Linux), so
 * a fake DNS can point `mx1` at 127.0.0.1 and `mx2` at 127.0.0.2 and the engine connects to
 * `config.smtpPort` on each.
 *
 * ```ts
 * const smtp = await startFakeSmtp({
 *   hosts: ["127.0.0.1", "127.0.0.2"],
 *   behaviour: { mailboxes: { "ada@example.test": "accept" } }, // everyone else: 550 5.1.1
 *   hostBehaviour: { "127.0.0.1": { greeting: "421" } },         // mx1 is closing
 * });
 * smtp.port; smtp.connections("127.0.0.2"); smtp.rcpts; smtp.sessions;
 * await smtp.close();
 * ```
 *
 * Replies (`FakeReply`), usable at the greeting, at MAIL FROM and per recipient:
 * - `"accept"`: 250 (220 at the greeting)
 * - `"reject"`: `550 5.1.1 … User unknown`
 * - `"greylist"`: `451 4.7.1 Greylisted, try again later`, every time
 * - `{ greylist: n, then? }`: 451 4.7.1 the first `n` times this address is asked on this host,
 *   then `then` (default `"accept"`): a greylisting daemon in front of the mailbox
 * - `{ greylistMs, then? }`: as postgrey does it: 451 4.7.1 until `greylistMs` after this host
 *   first saw this (sender, recipient), then `then` (default `"accept"`); a new sender or
 *   recipient starts its own wait
 * - `"policy"`: `554 5.7.1 … blocked using zen.spamhaus.org`
 * - `"421"`: `421 4.3.2 Service shutting down` and the connection is closed
 * - `"drop"`: the connection is closed without a reply
 * - `{ code, message, close? }`: exactly that reply (e.g. `{ code: 550, message: "no" }`)
 * - `{ delayMs, then? }`: `then` (default `"accept"`) after `delayMs` (a slow server)
 *
 * STARTTLS is offered with the test certificate in `tls/` (CA `tls/ca.pem`) unless `starttls`
 * is false. Every connection is counted per host (`connections(host)`); every session keeps
 * whether it ran over TLS (`session.secure`), and every RCPT is recorded with its reply code.
 */
import { SMTPServer, type SMTPServerSession } from "smtp-server";

export type FakeReply =
  | "accept"
  | "reject"
  | "greylist"
  | "policy"
  | "421"
  | "drop"
  | { greylist: number; then?: FakeReply }
  | { greylistMs: number; then?: FakeReply }
  | { code: number; message: string; close?: boolean }
  | { delayMs: number; then?: FakeReply };

export interface FakeSmtpBehaviour {
  /** At connection (default `"accept"`: 220 greeting). */
  greeting?: FakeReply;
  /** At MAIL FROM (default `"accept"`). */
  mailFrom?: FakeReply;
  /** Per recipient address (matched lower-cased). */
  mailboxes?: Record<string, FakeReply>;
  /** Every recipient not in `mailboxes` (default `"reject"`, or `"accept"` when `catchAll`). */
  otherRecipients?: FakeReply;
  /** Accept every recipient not in `mailboxes`. */
  catchAll?: boolean;
  /** Offer STARTTLS (default true). */
  starttls?: boolean;
}

export interface FakeSmtpSession {
  host: string;
  id: string;
  /** True once the session ran STARTTLS. */
  secure: boolean;
  helo: string | null;
  mailFrom: string | null;
  rcpts: string[];
}

export interface FakeSmtpRcpt {
  host: string;
  sessionId: string;
  address: string;
  /** The reply code sent (null for a dropped connection or a reply never sent). */
  code: number | null;
  secure: boolean;
}

export interface FakeSmtp {
  port: number;
  hosts: string[];
  /** Connections accepted by one host, or by all. */
  connections(host?: string): number;
  /** The most connections one host had open at once. */
  mostOpen(host: string): number;
  sessions: FakeSmtpSession[];
  rcpts: FakeSmtpRcpt[];
  /** Replaces the behaviour of one host, or the default of every host without its own. */
  setBehaviour(behaviour: FakeSmtpBehaviour, host?: string): void;
  /** Forgets counted sessions, recipients and greylisting counts. */
  reset(): void;
  close(): Promise<void>;
}

export interface FakeSmtpOptions {
  /** Loopback addresses to listen on (default `["127.0.0.1"]`). */
  hosts?: string[];
  /** Port (default 0: one free port shared by every host). */
  port?: number;
  /** Behaviour of every host without its own (default: everyone rejected, STARTTLS offered). */
  behaviour?: FakeSmtpBehaviour;
  /** Behaviour per host. */
  hostBehaviour?: Record<string, FakeSmtpBehaviour>;
}

const TLS_DIR = new URL("./tls/", import.meta.url);
/** Path of the test CA that signed the fake's certificate: pass it as `VERIFY_TLS_CA_FILE`. */
export const FAKE_TLS_CA_FILE = decodeURIComponent(new URL("ca.pem", TLS_DIR).pathname);

interface SmtpConnectionInternals {
  id: string;
  _socket: { destroy(): void };
}

type Sent = { code: number; message: string; close: boolean } | { drop: true };

function resolveReply(reply: FakeReply, kind: "greeting" | "command"): Sent {
  if (typeof reply === "object" && "code" in reply) {
    return { code: reply.code, message: reply.message, close: reply.close ?? false };
  }
  switch (reply) {
    case "accept":
      return { code: kind === "greeting" ? 220 : 250, message: "OK", close: false };
    case "reject":
      return {
        code: 550,
        message: "5.1.1 Recipient address rejected: User unknown in virtual mailbox table",
        close: false,
      };
    case "greylist":
      return { code: 451, message: "4.7.1 Greylisted, try again later", close: false };
    case "policy":
      return {
        code: 554,
        message: "5.7.1 Service unavailable; Client host blocked using zen.spamhaus.org",
        close: false,
      };
    case "421":
      return { code: 421, message: "4.3.2 Service shutting down", close: true };
    case "drop":
      return { drop: true };
  }
  throw new Error(`fake smtp: unexpected reply ${JSON.stringify(reply)}`);
}

function smtpError(code: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode: code });
}

/** Starts one listener per host on a shared port. */
export async function startFakeSmtp(options: FakeSmtpOptions = {}): Promise<FakeSmtp> {
  const hosts = options.hosts ?? ["127.0.0.1"];
  const key = await Deno.readTextFile(new URL("server-key.pem", TLS_DIR));
  const cert = await Deno.readTextFile(new URL("server.pem", TLS_DIR));
  let defaultBehaviour: FakeSmtpBehaviour = options.behaviour ?? {};
  const perHost = new Map(Object.entries(options.hostBehaviour ?? {}));
  const counts = new Map<string, number>();
  const openNow = new Map<string, number>();
  const mostOpen = new Map<string, number>();
  const greylisted = new Map<string, number>();
  /** (host, sender, recipient) → when first seen (`{ greylistMs }`). */
  const firstSeen = new Map<string, number>();
  const sessions: FakeSmtpSession[] = [];
  const rcpts: FakeSmtpRcpt[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const bySessionId = new Map<string, FakeSmtpSession>();

  const behaviourOf = (host: string) => perHost.get(host) ?? defaultBehaviour;

  function later(ms: number, run: () => void) {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  }

  function createServer(host: string): SMTPServer {
    const server: SMTPServer = new SMTPServer({
      name: `fake-${host}`,
      key,
      cert,
      disableReverseLookup: true,
      authOptional: true,
      logger: false,
      closeTimeout: 100,
      maxAllowedUnauthenticatedCommands: false,
      onConnect(session, callback) {
        counts.set(host, (counts.get(host) ?? 0) + 1);
        const open = (openNow.get(host) ?? 0) + 1;
        openNow.set(host, open);
        mostOpen.set(host, Math.max(mostOpen.get(host) ?? 0, open));
        const record: FakeSmtpSession = {
          host,
          id: session.id,
          secure: false,
          helo: null,
          mailFrom: null,
          rcpts: [],
        };
        sessions.push(record);
        bySessionId.set(session.id, record);
        // Per-connection STARTTLS switch, read when the EHLO reply is built.
        if (behaviourOf(host).starttls === false) session.disabledCommands = ["STARTTLS"];
        answer(session, behaviourOf(host).greeting ?? "accept", "greeting", callback);
      },
      onClose() {
        openNow.set(host, (openNow.get(host) ?? 1) - 1);
      },
      onSecure(_socket, session, callback) {
        const record = bySessionId.get(session.id);
        if (record) record.secure = true;
        callback();
      },
      onMailFrom(address, session, callback) {
        const record = bySessionId.get(session.id);
        if (record) {
          record.mailFrom = address.address;
          record.helo = session.hostNameAppearsAs || null;
          record.secure = session.secure;
        }
        answer(session, behaviourOf(host).mailFrom ?? "accept", "command", callback);
      },
      onRcptTo(address, session, callback) {
        const behaviour = behaviourOf(host);
        const lower = address.address.toLowerCase();
        const record = bySessionId.get(session.id);
        record?.rcpts.push(lower);
        let reply: FakeReply = behaviour.mailboxes?.[lower] ??
          behaviour.otherRecipients ?? (behaviour.catchAll ? "accept" : "reject");
        if (typeof reply === "object" && "greylist" in reply) {
          const seenKey = `${host}\u0000${lower}`;
          const seen = greylisted.get(seenKey) ?? 0;
          greylisted.set(seenKey, seen + 1);
          reply = seen < reply.greylist ? "greylist" : reply.then ?? "accept";
        } else if (typeof reply === "object" && "greylistMs" in reply) {
          const triplet = `${host}\u0000${record?.mailFrom ?? ""}\u0000${lower}`;
          const since = firstSeen.get(triplet) ?? Date.now();
          firstSeen.set(triplet, since);
          reply = Date.now() - since < reply.greylistMs ? "greylist" : reply.then ?? "accept";
        }
        const entry: FakeSmtpRcpt = {
          host,
          sessionId: session.id,
          address: lower,
          code: null,
          secure: session.secure,
        };
        rcpts.push(entry);
        answer(session, reply, "command", callback, (code) => entry.code = code);
      },
    });
    server.on("error", () => {});

    function drop(session: SMTPServerSession) {
      for (const connection of server.connections as Set<unknown>) {
        const internals = connection as SmtpConnectionInternals;
        if (internals.id === session.id) internals._socket.destroy();
      }
    }

    function answer(
      session: SMTPServerSession,
      reply: FakeReply,
      kind: "greeting" | "command",
      callback: (err?: Error | null) => void,
      sent?: (code: number) => void,
    ) {
      if (typeof reply === "object" && "delayMs" in reply) {
        const then = reply.then ?? "accept";
        later(reply.delayMs, () => answer(session, then, kind, callback, sent));
        return;
      }
      const resolved = resolveReply(reply, kind);
      if ("drop" in resolved) return drop(session);
      sent?.(resolved.code);
      if (resolved.code < 400) return callback();
      if (resolved.close && kind === "command") {
        // smtp-server closes by itself only after a 421; other closing replies are sent here.
        callback(smtpError(resolved.code, resolved.message));
        if (resolved.code !== 421) later(5, () => drop(session));
        return;
      }
      callback(smtpError(resolved.code, resolved.message));
    }

    return server;
  }

  async function listenAll(port: number): Promise<{ servers: SMTPServer[]; port: number }> {
    const servers: SMTPServer[] = [];
    let boundPort = port;
    try {
      for (const host of hosts) {
        const server = createServer(host);
        await new Promise<void>((resolve, reject) => {
          server.server.once("error", reject);
          server.listen(boundPort, host, () => {
            server.server.off("error", reject);
            resolve();
          });
        });
        servers.push(server);
        if (boundPort === 0) {
          boundPort = (server.server.address() as { port: number }).port;
        }
      }
      return { servers, port: boundPort };
    } catch (error) {
      await Promise.all(servers.map((server) => closeServer(server)));
      throw error;
    }
  }

  let bound: { servers: SMTPServer[]; port: number } | undefined;
  for (let attempt = 0; !bound; attempt++) {
    try {
      bound = await listenAll(options.port ?? 0);
    } catch (error) {
      if (attempt >= 5 || options.port) throw error;
    }
  }
  const { servers, port } = bound;

  return {
    port,
    hosts,
    connections: (host) =>
      host === undefined ? [...counts.values()].reduce((a, b) => a + b, 0) : counts.get(host) ?? 0,
    mostOpen: (host) => mostOpen.get(host) ?? 0,
    sessions,
    rcpts,
    setBehaviour(behaviour, host) {
      if (host === undefined) defaultBehaviour = behaviour;
      else perHost.set(host, behaviour);
    },
    reset() {
      counts.clear();
      mostOpen.clear();
      // `firstSeen` stays: a greylisting daemon's memory outlives what a test counts.
      greylisted.clear();
      sessions.length = 0;
      rcpts.length = 0;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all(servers.map((server) => closeServer(server)));
    },
  };
}

function closeServer(server: SMTPServer): Promise<void> {
  for (const connection of server.connections as Set<unknown>) {
    (connection as SmtpConnectionInternals)._socket.destroy();
  }
  return new Promise((resolve) => server.close(() => resolve()));
}
