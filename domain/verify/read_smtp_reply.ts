/**
 * Reads what an SMTP reply says about a mailbox or about us. The rule that matters most: a reply
 * about the sender or the client says nothing about the mailbox and is never read as "no such
 * user" (the most common false "invalid" of open-source verifiers):
 *
 * - `sender`: our envelope sender was refused (RFC 3463 x.1.7 / x.1.8, "Sender address
 *   rejected", Postfix's `reject_unknown_sender_domain` and `check_sender_access`), at MAIL FROM
 *   or, as Postfix delays rejections by default, at any RCPT;
 * - `policy`: the client was refused (5.7.x, "Client host rejected", "Helo command rejected", or
 *   a 5xx whose text talks about spam, block lists, Spamhaus, rDNS, policy or reputation).
 *
 * For RCPT TO (and the random catch-all probe):
 * - 250/251 → `accept`
 * - 421 → `closing` (the server is going away: try the next MX host)
 * - about the sender → `sender`; about the client → `policy` (4xx or 5xx alike)
 * - other 4xx (450/451 greylisting, 452) → `temporary` (retry once, later)
 * - 5xx with 5.1.x → `reject`; otherwise 550/551/553 → `reject`, 554 → `policy`
 * - anything else (other 2xx/3xx, 500–504 syntax errors, 552 mailbox full, …) → `unexpected`
 */
import type { SmtpReply } from "../providers/smtp/smtp_client.ts";

export type ReplyReading =
  | "accept"
  | "reject"
  | "temporary"
  | "policy"
  | "sender"
  | "closing"
  | "unexpected";

const POLICY_WORDS =
  /\b(spam\w*|block(ed|ing|list(ed)?)?|black ?list(ed)?|deny ?list(ed)?|spamhaus|rbls?|dnsbls?|rdns|reverse (dns|lookup)|ptr|policy|reputation|banned|barracuda|spamcop|sorbs)\b/i;

/** Postfix's and others' wording for a refusal of the envelope sender. */
const SENDER_WORDS =
  /\bsender address rejected\b|\bsender (domain|address) (not found|unknown|invalid|must exist|does not exist)\b|\bsender verify failed\b|\bunverified sender\b/i;

/** Wording for a refusal of the connecting client or its HELO name. */
const CLIENT_WORDS =
  /\bclient host rejected\b|\bhelo command rejected\b|\bclient host \S+ blocked\b/i;

/** True when the reply text names a block list, spam or sender policy. */
export function mentionsPolicy(text: string): boolean {
  return POLICY_WORDS.test(text);
}

/** True when the reply is about our envelope sender rather than the mailbox asked. */
export function isAboutSender(reply: SmtpReply): boolean {
  return /^[45]\.1\.[78]$/.test(reply.enhanced ?? "") || SENDER_WORDS.test(reply.text);
}

/** True when the reply refuses the client (our address, our HELO), not the mailbox. */
function isAboutClient(reply: SmtpReply): boolean {
  return CLIENT_WORDS.test(reply.text);
}

/** Reads the reply to RCPT TO (and to the random catch-all probe). */
export function readRcptReply(reply: SmtpReply): ReplyReading {
  const { code, enhanced, text } = reply;
  if (code === 250 || code === 251) return "accept";
  if (code === 421) return "closing";
  if (code >= 400 && code < 600) {
    if (isAboutSender(reply)) return "sender";
    if (isAboutClient(reply)) return "policy";
  }
  if (code >= 400 && code < 500) return "temporary";
  if (code >= 500 && code < 600) {
    if (enhanced?.startsWith("5.7.") || mentionsPolicy(text)) return "policy";
    if (enhanced?.startsWith("5.1.")) return "reject";
    if (code === 550 || code === 551 || code === 553) return "reject";
    if (code === 554) return "policy";
  }
  return "unexpected";
}

/**
 * Reads the reply to MAIL FROM, where the only address named is ours: 2xx goes on, 421 is the
 * host going away, a refusal about the client or a policy is `policy`, and any other 4xx or 5xx
 * refuses our sender (`sender`). None of them is retried within a lookup.
 */
export function readMailFromReply(reply: SmtpReply): ReplyReading {
  const { code, enhanced, text } = reply;
  if (code >= 200 && code < 300) return "accept";
  if (code === 421) return "closing";
  if (code >= 400 && code < 600) {
    if (isAboutSender(reply)) return "sender";
    const policy = /^[45]\.7\./.test(enhanced ?? "") || isAboutClient(reply) ||
      mentionsPolicy(text);
    return policy ? "policy" : "sender";
  }
  return "unexpected";
}

/**
 * Reads a reply to the greeting or EHLO/HELO, where no address is named: 2xx goes on, 421 and
 * other 4xx are the host's trouble (`closing` / `temporary`), and 5xx refuses us (`policy`).
 */
export function readSessionReply(reply: SmtpReply): ReplyReading {
  const { code } = reply;
  if (code >= 200 && code < 300) return "accept";
  if (code === 421) return "closing";
  if (code >= 400 && code < 500) return "temporary";
  if (code >= 500 && code < 600) return "policy";
  return "unexpected";
}
