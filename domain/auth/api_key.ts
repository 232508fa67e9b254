/**
 * API keys: `svc_sk_` + 48 hex characters, issued in lower case. Only a SHA-256 hash is ever
 * stored. The hex digits are read in either case (spec §5.2 says "hexadecimal", not which case):
 * a key is brought to lower case before it is hashed, so `…AB12` and `…ab12` are the same key.
 * The prefix is exact.
 */
import { encodeHex } from "../shared/hex.ts";

export const API_KEY_PREFIX = "svc_sk_";
/** A key in its canonical form, as issued and hashed. */
export const API_KEY_PATTERN = /^svc_sk_[0-9a-f]{48}$/;
const API_KEY_ANY_CASE = /^svc_sk_[0-9a-fA-F]{48}$/;

/** The canonical (lower-case hex) form of a well-formed key, or null for anything else. */
export function normalizeApiKey(text: string): string | null {
  if (!API_KEY_ANY_CASE.test(text)) return null;
  return API_KEY_PREFIX + text.slice(API_KEY_PREFIX.length).toLowerCase();
}

export function generateApiKey(): string {
  return API_KEY_PREFIX + encodeHex(crypto.getRandomValues(new Uint8Array(24)));
}

export async function hashApiKey(key: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  return encodeHex(new Uint8Array(digest));
}

/** Enough to recognise a key in a list, far too little to use it: `svc_sk_ab12…`. */
export function displayPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 4) + "…";
}
