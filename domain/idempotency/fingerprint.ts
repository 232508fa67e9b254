/**
 * A one-way fingerprint of a request: HMAC-SHA256 under the server secret of the canonical
 * JSON of (scope, request). Equal requests give equal fingerprints; the request cannot be read
 * back from it, and without the secret it cannot be confirmed by guessing.
 */
import { encodeHex } from "../shared/hex.ts";

export type Fingerprinter = (scope: string, request: unknown) => Promise<string>;

export async function createFingerprinter(secret: string): Promise<Fingerprinter> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return async (scope, request) => {
    const canonical = canonicalJson({ scope, request });
    const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(canonical));
    return encodeHex(new Uint8Array(mac));
  };
}

/** JSON with object keys sorted at every level, so key order never changes a fingerprint. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}
