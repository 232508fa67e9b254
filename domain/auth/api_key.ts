/** API keys: `svc_sk_` + 48 lower-case hex characters. Only a SHA-256 hash is ever stored. */
import { encodeHex } from "../shared/hex.ts";

export const API_KEY_PREFIX = "svc_sk_";
export const API_KEY_PATTERN = /^svc_sk_[0-9a-f]{48}$/;

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
