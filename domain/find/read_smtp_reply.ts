/**
 * Reads what an SMTP reply says about a mailbox or about us. The one rule that matters most:
 * a policy refusal (5.7.x, or a 5xx whose text talks about spam, block lists, Spamhaus, rDNS,
 * policy or reputation) refused the sender, not the mailbox, and is never read as "no such
 * user" (the most common false "invalid" of open-source verifiers).
 *
 * - 250/251 → `accept`
 * - 421 → `closing` (the server is going away: try the next MX host)
 * - other 4xx (450/451 greylisting, 452) → `temporary` (wait, retry once)
 * - 5xx with 5.7.x or policy words → `policy`
 * - 5xx with 5.1.x → `reject`; otherwise 550/551/553 → `reject`, 554 → `policy`
 * - anything else (other 2xx/3xx, 500–504 syntax errors, 552 mailbox full, …) → `unexpected`
 */
import type { SmtpReply } from "../providers/smtp/smtp_client.ts";

export type ReplyReading = "accept" | "reject" | "temporary" | "policy" | "closing" | "unexpected";

const POLICY_WORDS =
  /\b(spam\w*|block(ed|ing|list(ed)?)?|black ?list(ed)?|deny ?list(ed)?|spamhaus|rbls?|dnsbls?|rdns|reverse (dns|lookup)|ptr|policy|reputation|banned|barracuda|spamcop|sorbs)\b/i;

/** True when the reply text names a block list, spam or sender policy. */
export function mentionsPolicy(text: string): boolean {
  return POLICY_WORDS.test(text);
}

/** Reads the reply to RCPT TO (and to the random catch-all probe). */
export function readRcptReply(reply: SmtpReply): ReplyReading {
  const { code, enhanced, text } = reply;
  if (code === 250 || code === 251) return "accept";
  if (code === 421) return "closing";
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
 * Reads a reply to the greeting, EHLO/HELO or MAIL FROM, where no mailbox is named: 2xx goes on,
 * 421 and other 4xx are the host's trouble (`closing` / `temporary`), and 5xx refuses us
 * (`policy`).
 */
export function readSessionReply(reply: SmtpReply): ReplyReading {
  const { code } = reply;
  if (code >= 200 && code < 300) return "accept";
  if (code === 421) return "closing";
  if (code >= 400 && code < 500) return "temporary";
  if (code >= 500 && code < 600) return "policy";
  return "unexpected";
}
