/**
 * Verification at one MX host address for one or more people at the domain (`groups`: each
 * person's candidates, most likely first): the random catch-all probe (unless the domain is known
 * not to be catch-all) and then every person's candidates, asked in order over as few sessions as
 * the `VERIFY_MAX_RCPT_PER_SESSION` cap allows, each session holding one of the host's
 * `VERIFY_MAX_SESSIONS_PER_HOST` slots. Several people share the sessions (a bulk job's rows at one
 * domain): one probe for all, and an address two people share is asked once.
 *
 * Greylisting, as real greylisting daemons do it (postgrey keys on client, sender and
 * recipient): the first pass goes on past a 4xx so that every recipient it needs is seen once,
 * leaving out only a person's candidates after one of theirs was accepted. If any answer that matters was a 4xx, it waits
 * `VERIFY_GREYLIST_RETRY_SECONDS` (when the lookup's deadline leaves room) and asks exactly those
 * recipients again, the same probe address included, in the same order, in a new session; a
 * changed recipient would be a new triplet and greylisted again, for ever.
 *
 * The verdict, per person: the probe accepted → `catch-all`; the probe refused and the first of
 * their candidates that was not refused accepted → `valid`; the probe and every candidate refused
 * → `rejected`; still a 4xx after the retry → `unavailable` (`greylisted`). A reply about our
 * sender or client ends the work at once for everyone (`sender-rejected`, `policy`): nothing more
 * is asked, and it says nothing about any mailbox.
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
import { asksToBackOff, backOffMs, type HostPace } from "./host_pace.ts";
import { mailProviderOf } from "./mail_provider.ts";
import { noTelemetry, type SessionOutcome, type Telemetry } from "../observability/telemetry.ts";

export interface VerifyAtMailHostInput {
  /** The MX host name (TLS server name and evidence). */
  host: string;
  /** The address to connect to. */
  address: string;
  /** The catch-all probe address (the same for the whole lookup), or null to skip the probe. */
  probe: string | null;
  /** Each person's candidate addresses, in the order to try. */
  groups: readonly (readonly string[])[];
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
  /** The fleet-wide pause per host after a 421 or "too many connections" (none: no pause). */
  pace?: HostPace;
}

/** A person still greylisted: the recipients deferred, and the delay the last reply stated. */
export interface Deferral {
  recipients: string[];
  statedText: string;
}

export type HostFailure = "hosts-down" | "timeout" | "tls-error";

export type HostResult =
  | {
    kind: "decided";
    /** One outcome per group, in order. */
    outcomes: VerificationOutcome[];
    /** What the probe said, when it was asked and answered yes or no (for the cache). */
    probeVerdict: { catchAll: boolean; evidence: SmtpEvidence } | null;
    /** Per group, what is still greylisted when its outcome is `greylisted`; else null. */
    deferrals: (Deferral | null)[];
  }
  | {
    kind: "failed";
    why: HostFailure;
    evidence: SmtpEvidence | null;
    /** False when no TCP connection could be opened (the next address may be tried). */
    connected: boolean;
    /** Set when the host was not dialled because it is paused fleet-wide (until then). */
    pausedUntil?: number;
  };

/** Ends the work at this host with a result. */
class Ended {
  constructor(readonly result: HostResult) {}
}

export async function verifyAtMailHost(input: VerifyAtMailHostInput): Promise<HostResult> {
  const { config, probe, groups } = input;
  const answers = new Map<string, RecipientAnswer>();
  let useStartTls = true;
  /** Groups whose recipients the retry still asks; null in the first pass. */
  let retrying: Set<number> | null = null;

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
  /** The same outcome for everyone: the host said something about us, not about a mailbox. */
  const everyone = (outcome: VerificationOutcome) =>
    new Ended({
      kind: "decided",
      outcomes: groups.map(() => outcome),
      probeVerdict: null,
      deferrals: groups.map(() => null),
    });
  const unavailable = (why: UnavailableWhy, evidence: SmtpEvidence) =>
    everyone({ kind: "unavailable", why, evidence });

  /** Where each address is a candidate (two people may share one). */
  const groupsOf = new Map<string, number[]>();
  groups.forEach((candidates, group) => {
    for (const address of candidates) {
      groupsOf.set(address, [...groupsOf.get(address) ?? [], group]);
    }
  });
  /** A group is settled once one of its candidates was accepted (in the pass under way). */
  const accepted = new Set<number>();
  /** Groups that, on the retry, met a candidate still deferred: it decides them. */
  const deferredAgain = new Set<number>();
  const needed = (address: string): boolean => {
    if (address === probe) return true;
    return (groupsOf.get(address) ?? []).some((group) =>
      !accepted.has(group) && !deferredAgain.has(group) &&
      (retrying === null || retrying.has(group))
    );
  };
  const onAnswer = (answer: RecipientAnswer) => {
    answers.set(answer.address, answer);
    for (const group of groupsOf.get(answer.address) ?? []) {
      if (answer.reading === "accept") accepted.add(group);
      if (retrying && answer.reading === "temporary") deferredAgain.add(group);
    }
  };
  /** The probe accepted (catch-all) or, on the retry, still deferred: nothing else matters. */
  const stopAfter = (answer: RecipientAnswer) =>
    answer.address === probe &&
    (answer.reading === "accept" || (retrying !== null && answer.reading === "temporary"));

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
  const session = async (recipients: readonly string[]): Promise<SessionResult> => {
    const pausedUntil = await input.pace?.pausedUntil(input.host);
    if (pausedUntil) {
      throw new Ended({
        kind: "failed",
        why: "hosts-down",
        evidence: null,
        connected: false,
        pausedUntil,
      });
    }
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
            maxRecipients: config.maxRcptPerSession,
            skip: (address) => !needed(address),
            onAnswer,
            stopAfter,
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

  /** Asks the recipients still needed, in order, `maxRcptPerSession` RCPTs a session. */
  const pass = async (recipients: readonly string[]) => {
    let rest = recipients.filter(needed);
    while (rest.length > 0) {
      const result = await session(rest);
      const backOff = result.kind === "failed"
        ? result.reply
        : result.kind === "asked"
        ? result.answers.find((answer) => answer.reading === "closing")?.reply ?? null
        : null;
      if (backOff && asksToBackOff(backOff)) {
        await input.pace?.pause(input.host, backOffMs(backOff, config.hostBackoffMs));
      }
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
      const last = result.answers[result.answers.length - 1];
      if (last && stopAfter(last)) return;
      rest = rest.slice(result.considered).filter(needed);
    }
  };

  /** One person's verdict from the answers so far, or "retry" while a 4xx decides it. */
  const verdictOf = (candidates: readonly string[]): VerificationOutcome | "retry" => {
    const probeAnswer = probe === null ? null : answers.get(probe) ?? null;
    if (probeAnswer?.reading === "accept") {
      return { kind: "catch-all", evidence: answerEvidence(probeAnswer) };
    }
    const probePending = probeAnswer?.reading === "temporary";
    let lastRejection: RecipientAnswer | null = null;
    for (const candidate of candidates) {
      const answer = answers.get(candidate);
      if (answer?.reading === "reject") {
        lastRejection = answer;
        continue;
      }
      if (answer?.reading !== "accept" || probePending) return "retry";
      return { kind: "valid", address: candidate, evidence: answerEvidence(answer) };
    }
    if (probePending) return "retry";
    return { kind: "rejected", evidence: answerEvidence(lastRejection!) };
  };
  const probeVerdict = () => {
    const probeAnswer = probe === null ? null : answers.get(probe) ?? null;
    return probeAnswer && probeAnswer.reading !== "temporary"
      ? { catchAll: probeAnswer.reading === "accept", evidence: answerEvidence(probeAnswer) }
      : null;
  };
  /** The last 4xx a still-deferred person got (the probe's when it is deferred). */
  const lastTemporary = (candidates: readonly string[]): RecipientAnswer => {
    const deferred = [probe, ...candidates].filter((address): address is string =>
      address !== null && answers.get(address)?.reading === "temporary"
    );
    return answers.get(deferred[deferred.length - 1])!;
  };

  try {
    const everyRecipient = [...new Set([...(probe === null ? [] : [probe]), ...groups.flat()])];
    await pass(everyRecipient);
    let verdicts = groups.map(verdictOf);
    const waiting = new Set(verdicts.flatMap((v, group) => (v === "retry" ? [group] : [])));
    // A wait the deadline would cut short only delays the same answer.
    if (waiting.size > 0 && Date.now() + config.greylistRetryMs < input.deadlineAt) {
      await sleep(config.greylistRetryMs, input.signal);
      // Exactly what got a 4xx, the same probe address included, in the same order.
      const again = everyRecipient.filter((address) =>
        answers.get(address)?.reading === "temporary" &&
        (address === probe || (groupsOf.get(address) ?? []).some((g) => waiting.has(g)))
      );
      retrying = waiting;
      accepted.clear();
      for (const group of groups.keys()) if (verdicts[group] !== "retry") accepted.add(group);
      await pass(again);
      verdicts = groups.map(verdictOf);
    }
    return {
      kind: "decided",
      outcomes: verdicts.map((verdict, group) =>
        verdict === "retry"
          ? {
            kind: "unavailable",
            why: "greylisted",
            evidence: answerEvidence(lastTemporary(groups[group])),
          }
          : verdict
      ),
      probeVerdict: probeVerdict(),
      deferrals: verdicts.map((verdict, group) => {
        if (verdict !== "retry") return null;
        const deferred = [probe, ...groups[group]].filter((address): address is string =>
          address !== null && answers.get(address)?.reading === "temporary"
        );
        return { recipients: deferred, statedText: lastTemporary(groups[group]).reply.text };
      }),
    };
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
