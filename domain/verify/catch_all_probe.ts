/**
 * The local part of the catch-all probe: 20 lower-case alphanumerics derived from a secret, the
 * domain and the UTC day (HMAC-SHA256), a mailbox that exists nowhere.
 *
 * Why not random per call: greylisting servers (postgrey, rspamd) key on (client, sender,
 * recipient), so a lookup that comes back after the server's delay must ask the very same probe
 * address, or the probe is deferred anew for ever. Why not fixed: a probe address anyone could
 * compute could be made a real mailbox (or a known one) to fool the catch-all test; with the
 * secret it cannot be guessed, and it changes every day.
 */
import { createHmac } from "node:crypto";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
const DAY_MS = 86_400_000;

/** The UTC day number of a `Date.now()` time. */
export function dayOf(nowMs: number): number {
  return Math.floor(nowMs / DAY_MS);
}

/** The probe's local part for `domain` on `day` (see `dayOf`), under `secret`. */
export function catchAllProbeLocalPart(secret: string, domain: string, day: number): string {
  const digest = createHmac("sha256", secret)
    .update(`catch-all-probe\u0000${domain.toLowerCase()}\u0000${day}`)
    .digest();
  // 32 bytes, 20 characters: 252 = 7 × 36 keeps each one equally likely; a byte above it moves
  // on to the next (32 bytes leave room for 12 such bytes, p ≈ 10⁻²⁰ to run short).
  let out = "";
  for (const byte of digest) {
    if (byte < 252) out += ALPHABET[byte % 36];
    if (out.length === 20) break;
  }
  return out.padEnd(20, "0");
}

/** A secret for an engine built without one (tests, benches): stable for the process. */
export function processProbeSecret(): string {
  return processSecret ??= Array.from(crypto.getRandomValues(new Uint8Array(32)))
    .map((b) => b.toString(16).padStart(2, "0")).join("");
}

let processSecret: string | undefined;
