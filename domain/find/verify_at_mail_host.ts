/**
 * Verification at one MX host address: the random catch-all probe (unless the domain is known
 * not to be catch-all) and the candidates, asked in order over as few sessions as the
 * `VERIFY_MAX_RCPT_PER_SESSION` cap allows, each session holding one of the host's
 * `VERIFY_MAX_SESSIONS_PER_HOST` slots.
 *
 * Greylisting, as real greylisting daemons do it (postgrey keys on client, sender and
 * recipient): the first pass goes on past a 4xx so that every recipient it needs is seen once,
 * stopping only at an accepted candidate. If any answer that matters was a 4xx, it waits
 * `VERIFY_GREYLIST_RETRY_SECONDS` (when the lookup's deadline leaves room) and asks exactly those
 * recipients again, the same probe address included, in the same order, in a new session; a
 * changed recipient would be a new triplet and greylisted again, for ever.
 *
 * The verdict: the probe accepted → `catch-all`; the probe refused and the first candidate that
 * was not refused accepted → `valid`; the probe and every candidate refused → `rejected`; still a
 * 4xx after the retry → `unavailable` (`greylisted`). A reply about our sender or client ends the
 * lookup at once (`sender-rejected`, `policy`): nothing more is asked, and it says nothing about
 * any mailbox.
 */
import type { VerifyConfig } from "../config/config.ts";
import type { SmtpConnect, SmtpReply } from "../providers/smtp/smtp_client.ts";
import { SmtpFailure } from "../providers/smtp/smtp_client.ts";
import type { Clock } from "../shared/clock.ts";
import {
  askMailHost,
  type RecipientAnswer,
  type SessionResult,
  type SessionTls,
} from "./ask_mail_host.ts";
import type { SmtpEvidence, UnavailableWhy, VerificationOutcome } from "./email_verifier.ts";
import type { HostSessionSlots } from "./host_session_slots.ts";
import { mailProviderOf } from "./mail_provider.ts";
import { noTelemetry, type SessionOutcome, type Telemetry } from "../observability/telemetry.ts";

export interface VerifyAtMailHostInput {
  /** The MX host name (TLS server name and evidence). */
  host: string;
  /** The address to connect to. */
  address: string;
  /** The catch-all probe address (the same for the whole lookup), or null to skip the probe. */
  probe: string | null;
  candidates: readonly string[];
  config: VerifyConfig;
  caCerts?: string[];
  clock: Clock;
  slots: HostSessionSlots;
  /** The whole lookup's deadline. */
  signal: AbortSignal;
  /** When the deadline falls (`Date.now()` time): a greylist wait past it is not begun. */
  deadlineAt: number;
  connect?: SmtpConnect;
  /** Called for every SMTP session opened (a TCP connection that was accepted). */
  onSession?: () => void;
  /** Told of every session and how it ended (by who runs the host, never its name). */
  telemetry?: Telemetry;
}

export type HostFailure = "hosts-down" | "timeout" | "tls-error";

export type HostResult =
  | {
    kind: "decided";
    outcome: VerificationOutcome;
    /** What the probe said, when it was asked and answered yes or no (for the cache). */
    probeVerdict: { catchAll: boolean; evidence: SmtpEvidence } | null;
  }
  | {
    kind: "failed";
    why: HostFailure;
    evidence: SmtpEvidence | null;
    /** False when no TCP connection could be opened (the next address may be tried). */
    connected: boolean;
  };

/** Ends the work at this host with a result. */
class Ended {
  constructor(readonly result: HostResult) {}
}

export async function verifyAtMailHost(input: VerifyAtMailHostInput): Promise<HostResult> {
  const { config, probe, candidates } = input;
  const answers = new Map<string, RecipientAnswer>();
  let useStartTls = true;

  const evidence = (reply: SmtpReply | null, tls: SessionTls | null): SmtpEvidence => ({
    mxHost: input.host,
    provider: mailProviderOf(input.host),
    smtpCode: reply?.code ?? null,
    enhancedStatus: reply?.enhanced ?? null,
    encrypted: tls?.encrypted ?? null,
    certificateVerified: tls?.certificateVerified ?? null,
    checkedAt: new Date(input.clock.now()).toISOString(),
  });
  const answerEvidence = (answer: RecipientAnswer) => evidence(answer.reply, answer.tls);
  const unavailable = (why: UnavailableWhy, evidence: SmtpEvidence) =>
    new Ended({
      kind: "decided",
      outcome: { kind: "unavailable", why, evidence },
      probeVerdict: null,
    });

  const telemetry = input.telemetry ?? noTelemetry;
  const provider = mailProviderOf(input.host);
  const observedSession = async (run: () => Promise<SessionResult>) => {
    const end = telemetry.begin({ kind: "smtp_session", provider });
    try {
      const result = await run();
      end(sessionOutcome(result));
      return result;
    } catch (error) {
      end(input.signal.aborted ? "timeout" : "error");
      throw error;
    }
  };

  /** One session, holding a slot of the host; once more without STARTTLS if TLS failed. */
  const session = async (
    recipients: readonly string[],
    retrying: boolean,
  ): Promise<SessionResult> => {
    const release = await input.slots.acquire(input.host, input.signal).catch(() => {
      throw new SmtpFailure("aborted", "waiting for a session slot: aborted");
    });
    try {
      const ask = () =>
        observedSession(() =>
          askMailHost({
            host: input.host,
            address: input.address,
            recipients,
            stopAtAccept: true,
            stopAtTemporary: retrying,
            useStartTls,
            config,
            caCerts: input.caCerts,
            signal: input.signal,
            connect: input.connect,
            onSession: input.onSession,
          })
        );
      const first = await ask();
      if (first.kind !== "tls-failed") return first;
      useStartTls = false;
      const second = await ask();
      if (second.kind === "failed" && !second.connected) {
        throw new Ended({ kind: "failed", why: "tls-error", evidence: null, connected: true });
      }
      if (second.kind === "tls-failed") throw new Error("unreachable: STARTTLS was not used");
      return second;
    } finally {
      release();
    }
  };

  /**
   * Asks the recipients in order, a session per `maxRcptPerSession`; stops at an accept, and on
   * the retry at a recipient still deferred (everything before it refused, it decides).
   */
  const pass = async (recipients: readonly string[], retrying: boolean) => {
    for (let from = 0; from < recipients.length;) {
      const batch = recipients.slice(from, from + config.maxRcptPerSession);
      const result = await session(batch, retrying);
      if (result.kind === "failed") {
        throw new Ended({
          kind: "failed",
          why: result.why,
          evidence: evidence(result.reply, null),
          connected: result.connected,
        });
      }
      if (result.kind === "refused") {
        const why = result.reading === "sender"
          ? "sender-rejected"
          : result.reading === "policy"
          ? "policy"
          : "unexpected-reply";
        throw unavailable(why, evidence(result.reply, result.tls));
      }
      if (result.kind === "tls-failed") throw new Error("unreachable: handled in session()");
      for (const answer of result.answers) {
        answers.set(answer.address, answer);
        switch (answer.reading) {
          case "closing":
            throw new Ended({
              kind: "failed",
              why: "hosts-down",
              evidence: answerEvidence(answer),
              connected: true,
            });
          case "sender":
            throw unavailable("sender-rejected", answerEvidence(answer));
          case "policy":
            throw unavailable("policy", answerEvidence(answer));
          case "unexpected":
            throw unavailable("unexpected-reply", answerEvidence(answer));
        }
      }
      const stopped = result.answers.some((answer) =>
        answer.reading === "accept" || (retrying && answer.reading === "temporary")
      );
      if (stopped) return;
      from += result.answers.length;
    }
  };

  /** What the answers so far decide, or the recipients to ask again after a 4xx. */
  const verdict = (): HostResult | { retry: string[] } => {
    const probeAnswer = probe === null ? null : answers.get(probe) ?? null;
    const probeVerdict = probeAnswer && probeAnswer.reading !== "temporary"
      ? { catchAll: probeAnswer.reading === "accept", evidence: answerEvidence(probeAnswer) }
      : null;
    if (probeAnswer?.reading === "accept") {
      return {
        kind: "decided",
        outcome: { kind: "catch-all", evidence: answerEvidence(probeAnswer) },
        probeVerdict,
      };
    }
    const retry = () => ({
      retry: [probe, ...candidates].filter((address): address is string =>
        address !== null && answers.get(address)?.reading === "temporary"
      ),
    });
    const probePending = probeAnswer?.reading === "temporary";
    let lastRejection: RecipientAnswer | null = null;
    for (const candidate of candidates) {
      const answer = answers.get(candidate);
      if (answer?.reading === "reject") {
        lastRejection = answer;
        continue;
      }
      if (answer?.reading !== "accept" || probePending) return retry();
      return {
        kind: "decided",
        outcome: { kind: "valid", address: candidate, evidence: answerEvidence(answer) },
        probeVerdict,
      };
    }
    if (probePending) return retry();
    return {
      kind: "decided",
      outcome: { kind: "rejected", evidence: answerEvidence(lastRejection!) },
      probeVerdict,
    };
  };

  try {
    await pass(probe === null ? candidates : [probe, ...candidates], false);
    const first = verdict();
    if (!("retry" in first)) return first;
    const lastTemporary = answers.get(first.retry[first.retry.length - 1])!;
    const greylisted = () => unavailable("greylisted", answerEvidence(lastTemporary)).result;
    // A wait the deadline would cut short only delays the same answer.
    if (Date.now() + config.greylistRetryMs >= input.deadlineAt) return greylisted();
    await sleep(config.greylistRetryMs, input.signal);
    await pass(first.retry, true);
    const second = verdict();
    return "retry" in second ? greylisted() : second;
  } catch (error) {
    if (error instanceof Ended) return error.result;
    throw error;
  }
}

/** How a session ended, in `verification_sessions_total`'s words: its last reply decides. */
export function sessionOutcome(result: SessionResult): SessionOutcome {
  switch (result.kind) {
    case "tls-failed":
      return "tls_failed";
    case "failed":
      return result.why === "timeout" ? "timeout" : "hosts_down";
    case "refused":
      return result.reading === "sender"
        ? "sender_rejected"
        : result.reading === "policy"
        ? "policy"
        : "unexpected";
    case "asked":
      switch (result.answers.at(-1)?.reading) {
        case "accept":
          return "accepted";
        case "reject":
          return "rejected";
        case "temporary":
          return "greylisted";
        case "policy":
          return "policy";
        case "sender":
          return "sender_rejected";
        case "closing":
          return "hosts_down";
        default:
          return "unexpected";
      }
  }
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
