/**
 * A small SMTP client for mailbox verification, on `node:net` / `node:tls`: greeting, EHLO (HELO
 * when EHLO is refused with 5xx), STARTTLS, MAIL FROM, any number of RCPT TO on one session,
 * QUIT. It never sends DATA: libraries that deliver mail cannot stop after RCPT.
 *
 * STARTTLS is opportunistic, as between mail servers (RFC 7435; Postfix's `may` level): the
 * session is encrypted whenever the server offers it, and the certificate is checked (against the
 * usual roots plus `caCerts`) only to report `certificateVerified`, never to refuse it. Most MX
 * hosts present certificates no client could verify (self-signed, another name); refusing them
 * cost a second, plaintext session per lookup and a TLS failure in the server's log.
 * `Deno.startTls` has no way to accept an unverified certificate, so this client is on
 * `node:net` / `node:tls`, whose `rejectUnauthorized: false` does.
 *
 * Every reply must arrive within `commandTimeoutMs` (else `SmtpFailure` "timeout"); the
 * optional `signal` (the whole lookup's deadline) ends everything at once ("aborted"). Transport
 * trouble is thrown as `SmtpFailure` (refused, timeout, closed, tls, protocol, aborted); replies,
 * whatever their code, are returned. `TCP_NODELAY` is set on the socket at connect and stays on
 * through STARTTLS (same socket): 45 ms → 2 ms per dialogue, measured. Nothing here logs;
 * addresses never leave this module except on the wire.
 */
import * as net from "node:net";
import * as tls from "node:tls";

/** One SMTP reply, all its lines read. */
export interface SmtpReply {
  code: number;
  /** RFC 3463 enhanced status code (`5.1.1`) from the first line carrying one, or null. */
  enhanced: string | null;
  /** The text of every line, without code and enhanced status, joined by "\n". */
  text: string;
}

export type SmtpFailureKind =
  /** The TCP connection could not be opened (refused, unreachable, no answer in time). */
  | "refused"
  /** A reply did not arrive within the command timeout. */
  | "timeout"
  /** The server closed the connection (or it broke) before a full reply. */
  | "closed"
  /** The TLS handshake after STARTTLS failed (certificate, protocol). */
  | "tls"
  /** The server sent something that is not SMTP. */
  | "protocol"
  /** The caller's signal ended the session. */
  | "aborted";

export class SmtpFailure extends Error {
  constructor(readonly kind: SmtpFailureKind, message: string) {
    super(message);
    this.name = "SmtpFailure";
  }
}

/** How to open a TCP connection: `connectTcp` unless a test passes another. */
export type SmtpConnect = (
  options: { hostname: string; port: number; signal?: AbortSignal },
) => Promise<net.Socket>;

export interface SmtpSessionOptions {
  /** The address (IP) to connect to. */
  address: string;
  port: number;
  /** The MX host name: the TLS server name the certificate is checked against. */
  serverName: string;
  commandTimeoutMs: number;
  /** Ends the session (the whole lookup's deadline). */
  signal?: AbortSignal;
  /** Extra trusted CA certificates (PEM) for STARTTLS. */
  caCerts?: string[];
  connect?: SmtpConnect;
}

export interface SmtpSession {
  /** The 220 (or refusal) the server greeted with. */
  readonly greeting: SmtpReply;
  /** True after a completed STARTTLS handshake. */
  readonly secure: boolean;
  /** After STARTTLS: whether the certificate chained to a trusted root for the MX name. */
  readonly certificateVerified: boolean;
  /** Upper-case EHLO keywords of the last EHLO (`STARTTLS`, `PIPELINING`, …). */
  readonly extensions: ReadonlySet<string>;
  /** EHLO, and HELO when EHLO is refused with 5xx. */
  ehlo(name: string): Promise<SmtpReply>;
  /**
   * Sends STARTTLS; on 220 runs the TLS handshake, accepting any certificate (throws "tls" only
   * when the handshake itself fails). EHLO again after.
   */
  startTls(): Promise<SmtpReply>;
  mailFrom(address: string, options?: { smtpUtf8?: boolean }): Promise<SmtpReply>;
  rcptTo(address: string): Promise<SmtpReply>;
  /** QUIT, waiting briefly for its reply; never throws. Closes the connection. */
  quit(): Promise<void>;
  close(): void;
}

const MAX_REPLY_BYTES = 64 * 1024;
const QUIT_WAIT_MS = 2000;
const REPLY_LINE = /^(\d{3})([ -])(.*)$/;
const ENHANCED = /^([245])\.(\d{1,3})\.(\d{1,3})(?=\s|$)\s*/;

/** Parses the lines of one complete reply (already split, without line ends). */
export function parseReply(lines: string[]): SmtpReply {
  let code = 0;
  let enhanced: string | null = null;
  const texts: string[] = [];
  for (const line of lines) {
    const match = REPLY_LINE.exec(line);
    if (!match) throw new SmtpFailure("protocol", "malformed SMTP reply line");
    code = Number(match[1]);
    let text = match[3];
    const status = ENHANCED.exec(text);
    if (status && status[1] === match[1][0]) {
      enhanced ??= `${status[1]}.${Number(status[2])}.${Number(status[3])}`;
      text = text.slice(status[0].length);
    }
    texts.push(text);
  }
  return { code, enhanced, text: texts.join("\n") };
}

function assertArgument(value: string) {
  if (/[\r\n\0<>]/.test(value)) {
    throw new TypeError("SMTP argument must not contain CR, LF, NUL, '<' or '>'");
  }
}

/** Rejects after `ms` or when `signal` aborts, whichever first; `onFail` tidies up. */
function bounded<T>(
  work: Promise<T>,
  ms: number,
  signal: AbortSignal | undefined,
  onFail: () => void,
  what: string,
): Promise<T> {
  if (signal?.aborted) {
    work.catch(() => {});
    onFail();
    return Promise.reject(new SmtpFailure("aborted", `${what}: aborted`));
  }
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      settle();
    };
    const fail = (error: SmtpFailure) =>
      finish(() => {
        work.catch(() => {});
        onFail();
        reject(error);
      });
    const onAbort = () => fail(new SmtpFailure("aborted", `${what}: aborted`));
    const timer = setTimeout(
      () => fail(new SmtpFailure("timeout", `${what}: no answer within ${ms} ms`)),
      ms,
    );
    signal?.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => finish(() => resolve(value)),
      (error) => finish(() => reject(error)),
    );
  });
}

/** Opens a TCP connection with `node:net` (TCP_NODELAY on); the signal abandons it. */
export const connectTcp: SmtpConnect = ({ hostname, port, signal }) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException("connect aborted", "AbortError"));
    const socket = net.connect({ host: hostname, port, noDelay: true });
    const onAbort = () => {
      socket.destroy();
      reject(new DOMException("connect aborted", "AbortError"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    socket.once("connect", () => {
      signal?.removeEventListener("abort", onAbort);
      socket.removeAllListeners("error");
      resolve(socket);
    });
    socket.once("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      socket.destroy();
      reject(error);
    });
  });

/** Connects, reads the greeting and returns the session (whatever the greeting said). */
export async function openSmtpSession(options: SmtpSessionOptions): Promise<SmtpSession> {
  const connect = options.connect ?? connectTcp;
  const connecting = connect({
    hostname: options.address,
    port: options.port,
    signal: options.signal,
  });
  let socket: net.Socket;
  try {
    socket = await bounded(connecting, options.commandTimeoutMs, options.signal, () => {
      connecting.then((late) => late.destroy(), () => {});
    }, "connect");
  } catch (error) {
    if (error instanceof SmtpFailure && error.kind === "aborted") throw error;
    throw new SmtpFailure(
      "refused",
      error instanceof SmtpFailure ? error.message : `connect failed: ${(error as Error).name}`,
    );
  }
  socket.setNoDelay(true);
  const session = new Session(socket, options);
  try {
    await session.readGreeting();
  } catch (error) {
    session.close();
    throw error;
  }
  return session;
}

/**
 * A node socket read as a pull stream: chunks queue up until `read()` takes them; the end of the
 * stream reads as null, a socket error as a rejection.
 */
class SocketReader {
  #chunks: Uint8Array[] = [];
  #ended = false;
  #error: Error | null = null;
  #wake: (() => void) | null = null;
  readonly socket: net.Socket;

  constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on("data", this.#onData);
    socket.on("end", this.#onEnd);
    socket.on("close", this.#onEnd);
    socket.on("error", this.#onError);
  }

  #onData = (chunk: Uint8Array) => {
    this.#chunks.push(chunk);
    this.#notify();
  };
  #onEnd = () => {
    this.#ended = true;
    this.#notify();
  };
  #onError = (error: Error) => {
    this.#error = error;
    this.#notify();
  };
  #notify() {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  async read(): Promise<Uint8Array | null> {
    for (;;) {
      const chunk = this.#chunks.shift();
      if (chunk) return chunk;
      if (this.#error) throw this.#error;
      if (this.#ended) return null;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  write(bytes: Uint8Array): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.#error) return reject(this.#error);
      this.socket.write(bytes, (error) => (error ? reject(error) : resolve()));
    });
  }

  /** Stops reading and hands the socket over (to the TLS layer); unread bytes are dropped. */
  detach(): net.Socket {
    this.socket.off("data", this.#onData);
    this.socket.off("end", this.#onEnd);
    this.socket.off("close", this.#onEnd);
    this.socket.off("error", this.#onError);
    this.socket.pause();
    this.#chunks = [];
    return this.socket;
  }

  close() {
    this.socket.destroy();
  }
}

class Session implements SmtpSession {
  greeting: SmtpReply = { code: 0, enhanced: null, text: "" };
  secure = false;
  certificateVerified = false;
  extensions = new Set<string>();
  #reader: SocketReader;
  #options: SmtpSessionOptions;
  #decoder = new TextDecoder();
  #encoder = new TextEncoder();
  #buffer = "";
  #closed = false;

  constructor(socket: net.Socket, options: SmtpSessionOptions) {
    this.#reader = new SocketReader(socket);
    this.#options = options;
  }

  async readGreeting() {
    this.greeting = await this.#readReply("greeting");
  }

  async ehlo(name: string): Promise<SmtpReply> {
    assertArgument(name);
    const reply = await this.#command(`EHLO ${name}`, "EHLO");
    this.extensions = new Set();
    if (reply.code >= 200 && reply.code < 300) {
      for (const line of reply.text.split("\n").slice(1)) {
        const keyword = line.trim().split(/\s+/)[0]?.toUpperCase();
        if (keyword) this.extensions.add(keyword);
      }
      return reply;
    }
    if (reply.code >= 500) return await this.#command(`HELO ${name}`, "HELO");
    return reply;
  }

  async startTls(): Promise<SmtpReply> {
    const reply = await this.#command("STARTTLS", "STARTTLS");
    if (reply.code !== 220) return reply;
    // Anything the server sent after 220 in plaintext must not be read as part of the TLS
    // session (RFC 3207 §5: STARTTLS command injection).
    this.#buffer = "";
    const { commandTimeoutMs, signal, serverName, caCerts } = this.#options;
    const plain = this.#reader.detach();
    const secure = tls.connect({
      socket: plain,
      ...(net.isIP(serverName) ? {} : { servername: serverName }),
      rejectUnauthorized: false,
      ...(caCerts && caCerts.length > 0 ? { ca: [...tls.rootCertificates, ...caCerts] } : {}),
    });
    const handshake = new Promise<void>((resolve, reject) => {
      secure.once("secureConnect", () => resolve());
      secure.once("error", reject);
    });
    try {
      await bounded(handshake, commandTimeoutMs, signal, () => secure.destroy(), "TLS handshake");
    } catch (error) {
      secure.destroy();
      this.#closed = true;
      if (error instanceof SmtpFailure && error.kind === "aborted") throw error;
      throw new SmtpFailure("tls", `TLS handshake failed: ${(error as Error).message}`);
    }
    secure.removeAllListeners("error");
    this.#reader = new SocketReader(secure);
    this.secure = true;
    this.certificateVerified = secure.authorized;
    this.extensions = new Set();
    return reply;
  }

  mailFrom(address: string, options: { smtpUtf8?: boolean } = {}): Promise<SmtpReply> {
    assertArgument(address);
    const utf8 = options.smtpUtf8 && this.extensions.has("SMTPUTF8") ? " SMTPUTF8" : "";
    return this.#command(`MAIL FROM:<${address}>${utf8}`, "MAIL FROM");
  }

  rcptTo(address: string): Promise<SmtpReply> {
    assertArgument(address);
    return this.#command(`RCPT TO:<${address}>`, "RCPT TO");
  }

  async quit(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#write("QUIT", "QUIT", Math.min(this.#options.commandTimeoutMs, QUIT_WAIT_MS));
      await this.#readReply("QUIT", Math.min(this.#options.commandTimeoutMs, QUIT_WAIT_MS));
    } catch {
      // The verdict is known; a server that hangs up without a 221 changes nothing.
    } finally {
      this.close();
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#reader.close();
  }

  async #command(line: string, what: string): Promise<SmtpReply> {
    await this.#write(line, what, this.#options.commandTimeoutMs);
    return await this.#readReply(what);
  }

  async #write(line: string, what: string, timeoutMs: number): Promise<void> {
    if (this.#closed) throw new SmtpFailure("closed", `${what}: connection already closed`);
    const writing = this.#reader.write(this.#encoder.encode(`${line}\r\n`));
    try {
      await bounded(writing, timeoutMs, this.#options.signal, () => this.close(), what);
    } catch (error) {
      this.close();
      if (error instanceof SmtpFailure) throw error;
      throw new SmtpFailure("closed", `${what}: connection broke while writing`);
    }
  }

  /** Reads one complete (possibly multi-line) reply within the command timeout. */
  async #readReply(what: string, timeoutMs = this.#options.commandTimeoutMs): Promise<SmtpReply> {
    const deadline = Date.now() + timeoutMs;
    const lines: string[] = [];
    for (;;) {
      const end = this.#buffer.indexOf("\n");
      if (end >= 0) {
        const line = this.#buffer.slice(0, end).replace(/\r$/, "");
        this.#buffer = this.#buffer.slice(end + 1);
        lines.push(line);
        const match = REPLY_LINE.exec(line);
        if (!match) {
          this.close();
          throw new SmtpFailure("protocol", `${what}: malformed reply line`);
        }
        if (match[2] === " ") return parseReply(lines);
        continue;
      }
      if (this.#buffer.length > MAX_REPLY_BYTES || lines.length > 500) {
        this.close();
        throw new SmtpFailure("protocol", `${what}: reply too long`);
      }
      await this.#fill(what, Math.max(0, deadline - Date.now()));
    }
  }

  async #fill(what: string, timeoutMs: number): Promise<void> {
    if (this.#closed) throw new SmtpFailure("closed", `${what}: connection already closed`);
    let chunk: Uint8Array | null;
    try {
      chunk = await bounded(
        this.#reader.read(),
        timeoutMs,
        this.#options.signal,
        () => this.close(),
        what,
      );
    } catch (error) {
      this.close();
      if (error instanceof SmtpFailure) throw error;
      throw new SmtpFailure("closed", `${what}: connection broke while reading`);
    }
    if (chunk === null) {
      this.close();
      throw new SmtpFailure("closed", `${what}: connection closed by the server`);
    }
    this.#buffer += this.#decoder.decode(chunk, { stream: true });
  }
}
