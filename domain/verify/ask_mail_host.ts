/**
 * One SMTP session with one MX host, asking about recipients without sending mail: greeting →
 * EHLO → STARTTLS when offered (then EHLO again) → MAIL FROM → RCPT TO each recipient in order →
 * QUIT. It never sends DATA or BDAT.
 *
 * It asks the recipients given in order, at most `maxRecipients` of them, leaving out those
 * `skip` says are no longer needed (asked just
 * before each RCPT, so an answer can spare the rest of its person's candidates), reporting every
 * answer as it comes (`onAnswer`), and stops when `stopAfter` says so, or at the first reply that
 * ends the
 * conversation: one about our sender or client (`sender`, `policy`), a 421, or one that fits no
 * reading. What each recipient got is returned as read; deciding what the answers mean, and
 * retrying greylisted ones, is the caller's (`verify_at_mail_host.ts`).
 *
 * STARTTLS is opportunistic (the client accepts any certificate and reports whether it was
 * verified). Only a handshake that fails outright gives `tls-failed`: the caller then dials once
 * more without STARTTLS.
 */
import type { VerifyConfig } from "../config/config.ts";
import {
  openSmtpSession,
  type SmtpConnect,
  SmtpFailure,
  type SmtpReply,
  type SmtpSession,
} from "../providers/smtp/smtp_client.ts";
import {
  readMailFromReply,
  readRcptReply,
  readSessionReply,
  type ReplyReading,
} from "./read_smtp_reply.ts";

export interface AskMailHostInput {
  /** The MX host name (TLS server name). */
  host: string;
  /** The address to connect to. */
  address: string;
  /** Full addresses to ask, in order. */
  recipients: readonly string[];
  /** At most this many RCPTs in the session (`VERIFY_MAX_RCPT_PER_SESSION`). */
  maxRecipients: number;
  /** Whether a recipient is no longer needed (asked just before its RCPT). */
  skip(address: string): boolean;
  /** Called with every answer as it is read. */
  onAnswer(answer: RecipientAnswer): void;
  /** Whether nothing more needs asking after this answer. */
  stopAfter(answer: RecipientAnswer): boolean;
  useStartTls: boolean;
  config: VerifyConfig;
  caCerts?: string[];
  /** The whole lookup's deadline. */
  signal: AbortSignal;
  connect?: SmtpConnect;
  /** Called for every SMTP session opened (a TCP connection that was accepted). */
  onSession?: () => void;
}

/** Whether the session ran over TLS, and whether its certificate was verified. */
export interface SessionTls {
  encrypted: boolean;
  certificateVerified: boolean | null;
}

export interface RecipientAnswer {
  address: string;
  reading: ReplyReading;
  reply: SmtpReply;
  tls: SessionTls;
}

export type SessionResult =
  /**
   * The recipients asked, in order, and how many of those given were gone through (asked or
   * skipped): the next session starts after them.
   */
  | { kind: "asked"; answers: RecipientAnswer[]; considered: number }
  /** Refused before any recipient: at the greeting, EHLO or MAIL FROM. */
  | {
    kind: "refused";
    reading: "policy" | "sender" | "unexpected";
    reply: SmtpReply;
    tls: SessionTls;
  }
  /** No usable session: not reachable, 421, dropped, silent. */
  | {
    kind: "failed";
    why: "hosts-down" | "timeout";
    reply: SmtpReply | null;
    /** False when no TCP connection could be opened (the next address may be tried). */
    connected: boolean;
  }
  /** The TLS handshake after STARTTLS failed outright. */
  | { kind: "tls-failed" };

/** Ends the dialogue with a result. */
class Ended {
  constructor(readonly result: SessionResult) {}
}

const PLAIN: SessionTls = { encrypted: false, certificateVerified: null };

export async function askMailHost(input: AskMailHostInput): Promise<SessionResult> {
  const { config } = input;
  let session: SmtpSession;
  try {
    session = await openSmtpSession({
      address: input.address,
      port: config.smtpPort,
      serverName: input.host,
      commandTimeoutMs: config.commandTimeoutMs,
      signal: input.signal,
      caCerts: input.caCerts,
      connect: input.connect,
    });
  } catch (error) {
    if (!(error instanceof SmtpFailure) || error.kind === "aborted") throw error;
    if (error.kind === "refused") {
      return { kind: "failed", why: "hosts-down", reply: null, connected: false };
    }
    input.onSession?.();
    return transportFailure(error);
  }
  input.onSession?.();

  const tls = (): SessionTls =>
    session.secure ? { encrypted: true, certificateVerified: session.certificateVerified } : PLAIN;
  const failed = (reply: SmtpReply) =>
    new Ended({ kind: "failed", why: "hosts-down", reply, connected: true });
  const refused = (reading: ReplyReading, reply: SmtpReply) =>
    new Ended({
      kind: "refused",
      reading: reading === "sender" || reading === "policy" ? reading : "unexpected",
      reply,
      tls: tls(),
    });
  /** Greeting and EHLO: 2xx goes on, 4xx is the host's trouble, 5xx refuses us. */
  const expectAccept = (reply: SmtpReply) => {
    const reading = readSessionReply(reply);
    if (reading === "accept") return;
    if (reading === "policy") throw refused("policy", reply);
    throw failed(reply);
  };

  try {
    expectAccept(session.greeting);
    expectAccept(await session.ehlo(config.heloName));
    if (input.useStartTls && session.extensions.has("STARTTLS")) {
      const reply = await session.startTls();
      if (reply.code === 421) throw failed(reply);
      // Any other refusal of STARTTLS: go on in plaintext on this session.
      if (session.secure) expectAccept(await session.ehlo(config.heloName));
    }

    const smtpUtf8 = input.recipients.some((address) => /[^ -~]/.test(address)); // non-ASCII
    const mail = await session.mailFrom(config.mailFrom, { smtpUtf8 });
    const mailReading = readMailFromReply(mail);
    if (mailReading === "closing") throw failed(mail);
    if (mailReading !== "accept") throw refused(mailReading, mail);

    const answers: RecipientAnswer[] = [];
    let considered = 0;
    for (const address of input.recipients) {
      if (answers.length >= input.maxRecipients) break;
      considered++;
      if (input.skip(address)) continue;
      const reply = await session.rcptTo(address);
      const answer = { address, reading: readRcptReply(reply), reply, tls: tls() };
      answers.push(answer);
      input.onAnswer(answer);
      if (input.stopAfter(answer)) break;
      const { reading } = answer;
      if (reading !== "accept" && reading !== "reject" && reading !== "temporary") break;
    }
    return { kind: "asked", answers, considered };
  } catch (error) {
    if (error instanceof Ended) return error.result;
    if (!(error instanceof SmtpFailure) || error.kind === "aborted") throw error;
    if (error.kind === "tls") return { kind: "tls-failed" };
    return transportFailure(error);
  } finally {
    await session.quit();
  }
}

function transportFailure(error: SmtpFailure): SessionResult {
  return {
    kind: "failed",
    why: error.kind === "timeout" ? "timeout" : "hosts-down",
    reply: null,
    connected: true,
  };
}
