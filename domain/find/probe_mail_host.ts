/**
 * One SMTP session with one MX host, asking about the candidates without sending mail:
 * greeting → EHLO → STARTTLS when offered (then EHLO again) → MAIL FROM → the random catch-all
 * probe (unless the domain is known not to be catch-all) → RCPT TO each candidate in order,
 * stopping at the first accepted → QUIT.
 *
 * A host that cannot be reached, says 421 or drops the connection is `failed` (the caller tries
 * the next host); anything the host said about the mailboxes or about us is `decided`. A 4xx
 * (greylisting) to MAIL FROM or RCPT waits `greylistRetryMs` and asks once more on the same
 * session. When the TLS handshake after STARTTLS fails (e.g. a certificate we cannot verify),
 * the host is dialled once more without STARTTLS: verification reads RCPT replies only and
 * sends no message, so a plaintext session discloses nothing beyond the addresses asked.
 */
import type { VerifyConfig } from "../config/config.ts";
import type { Clock } from "../shared/clock.ts";
import {
  openSmtpSession,
  type SmtpConnect,
  SmtpFailure,
  type SmtpReply,
  type SmtpSession,
} from "../providers/smtp/smtp_client.ts";
import type { SmtpEvidence, VerificationOutcome } from "./email_verifier.ts";
import { readRcptReply, readSessionReply, type ReplyReading } from "./read_smtp_reply.ts";

export interface ProbeMailHostInput {
  domain: string;
  /** The MX host name (TLS server name and evidence). */
  host: string;
  /** The address to connect to. */
  address: string;
  candidates: string[];
  /** Send the random catch-all probe first (false when the domain is known not catch-all). */
  probeCatchAll: boolean;
  config: VerifyConfig;
  caCerts?: string[];
  clock: Clock;
  /** The whole lookup's deadline. */
  signal: AbortSignal;
  connect?: SmtpConnect;
  /** Called for every SMTP session opened (a TCP connection that was accepted). */
  onSession?: () => void;
  /** Called once the probe is answered accept (catch-all) or reject (not catch-all). */
  onCatchAllVerdict?: (catchAll: boolean, evidence: SmtpEvidence) => Promise<void>;
}

export type HostFailure = "hosts-down" | "timeout" | "tls-error";

export type HostResult =
  | { kind: "decided"; outcome: VerificationOutcome }
  | {
    kind: "failed";
    why: HostFailure;
    evidence: SmtpEvidence | null;
    /** False when no TCP connection could be opened (the next address may be tried). */
    connected: boolean;
  };

const LOCAL_PART_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** 20 random lower-case alphanumerics: a mailbox that exists nowhere. */
export function randomLocalPart(length = 20): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  // 252 = 7 × 36: reject bytes above it so every character is equally likely.
  let out = "";
  for (const byte of bytes) {
    if (byte < 252) out += LOCAL_PART_ALPHABET[byte % 36];
  }
  return out.length >= length ? out : out + randomLocalPart(length - out.length);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new SmtpFailure("aborted", "wait aborted"));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new SmtpFailure("aborted", "wait aborted"));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Thrown inside the dialogue to end it with a result. */
class Ended {
  constructor(readonly result: HostResult) {}
}

export async function probeMailHost(input: ProbeMailHostInput): Promise<HostResult> {
  const first = await attempt(input, true);
  if (first !== "tls-failed") return first;
  const second = await attempt(input, false);
  if (second === "tls-failed") throw new Error("unreachable: STARTTLS disabled");
  if (second.kind === "failed" && !second.connected) {
    return { ...second, why: "tls-error", connected: true };
  }
  return second;
}

async function attempt(
  input: ProbeMailHostInput,
  useStartTls: boolean,
): Promise<HostResult | "tls-failed"> {
  const { config, clock, host } = input;
  const evidence = (reply: SmtpReply | null): SmtpEvidence => ({
    mxHost: host,
    smtpCode: reply?.code ?? null,
    enhancedStatus: reply?.enhanced ?? null,
    checkedAt: new Date(clock.now()).toISOString(),
  });
  const failed = (why: HostFailure, reply: SmtpReply | null): Ended =>
    new Ended({ kind: "failed", why, evidence: evidence(reply), connected: true });
  const decided = (outcome: VerificationOutcome): Ended => new Ended({ kind: "decided", outcome });
  const unavailable = (
    why: "greylisted" | "policy" | "unexpected-reply",
    reply: SmtpReply,
  ): Ended => decided({ kind: "unavailable", why, evidence: evidence(reply) });

  /** What a non-accepting reading ends in. */
  const endFor = (reading: ReplyReading, reply: SmtpReply): Ended => {
    switch (reading) {
      case "closing":
        return failed("hosts-down", reply);
      case "temporary":
        return unavailable("greylisted", reply);
      case "policy":
        return unavailable("policy", reply);
      default:
        return unavailable("unexpected-reply", reply);
    }
  };

  /** Sends, and once more after `greylistRetryMs` when the answer is 4xx (not 421). */
  const ask = async (send: () => Promise<SmtpReply>, read: (reply: SmtpReply) => ReplyReading) => {
    let reply = await send();
    let reading = read(reply);
    if (reading === "temporary") {
      await sleep(config.greylistRetryMs, input.signal);
      reply = await send();
      reading = read(reply);
    }
    return { reply, reading };
  };

  let session: SmtpSession;
  try {
    session = await openSmtpSession({
      address: input.address,
      port: config.smtpPort,
      serverName: host,
      commandTimeoutMs: config.commandTimeoutMs,
      signal: input.signal,
      caCerts: input.caCerts,
      connect: input.connect,
    });
  } catch (error) {
    if (!(error instanceof SmtpFailure) || error.kind === "aborted") throw error;
    if (error.kind === "refused") {
      return { kind: "failed", why: "hosts-down", evidence: evidence(null), connected: false };
    }
    input.onSession?.();
    return {
      kind: "failed",
      why: error.kind === "timeout" ? "timeout" : "hosts-down",
      evidence: evidence(null),
      connected: true,
    };
  }
  input.onSession?.();

  try {
    const greeting = readSessionReply(session.greeting);
    if (greeting === "temporary" || greeting === "unexpected") {
      throw failed("hosts-down", session.greeting);
    }
    if (greeting !== "accept") throw endFor(greeting, session.greeting);

    const hello = async () => {
      const reply = await session.ehlo(config.heloName);
      const reading = readSessionReply(reply);
      if (reading === "temporary" || reading === "unexpected") throw failed("hosts-down", reply);
      if (reading !== "accept") throw endFor(reading, reply);
    };
    await hello();

    if (useStartTls && session.extensions.has("STARTTLS")) {
      const reply = await session.startTls();
      if (reply.code === 421) throw failed("hosts-down", reply);
      // Any other refusal of STARTTLS: go on in plaintext on this session.
      if (session.secure) await hello();
    }

    const smtpUtf8 = input.candidates.some((address) => /[^ -~]/.test(address)); // non-ASCII
    const mail = await ask(
      () => session.mailFrom(config.mailFrom, { smtpUtf8 }),
      readSessionReply,
    );
    if (mail.reading === "policy") throw unavailable("policy", mail.reply);
    if (mail.reading !== "accept") throw endFor(mail.reading, mail.reply);

    if (input.probeCatchAll) {
      const probe = await ask(
        () => session.rcptTo(`${randomLocalPart()}@${input.domain}`),
        readRcptReply,
      );
      if (probe.reading === "accept") {
        await input.onCatchAllVerdict?.(true, evidence(probe.reply));
        throw decided({ kind: "catch-all", evidence: evidence(probe.reply) });
      }
      if (probe.reading !== "reject") throw endFor(probe.reading, probe.reply);
      await input.onCatchAllVerdict?.(false, evidence(probe.reply));
    }

    let lastRejection: SmtpReply | null = null;
    for (const candidate of input.candidates) {
      const rcpt = await ask(() => session.rcptTo(candidate), readRcptReply);
      if (rcpt.reading === "accept") {
        throw decided({ kind: "valid", address: candidate, evidence: evidence(rcpt.reply) });
      }
      if (rcpt.reading !== "reject") throw endFor(rcpt.reading, rcpt.reply);
      lastRejection = rcpt.reply;
    }
    return { kind: "decided", outcome: { kind: "rejected", evidence: evidence(lastRejection) } };
  } catch (error) {
    if (error instanceof Ended) return error.result;
    if (!(error instanceof SmtpFailure) || error.kind === "aborted") throw error;
    if (error.kind === "tls") return "tls-failed";
    return {
      kind: "failed",
      why: error.kind === "timeout" ? "timeout" : "hosts-down",
      evidence: evidence(null),
      connected: true,
    };
  } finally {
    await session.quit();
  }
}
