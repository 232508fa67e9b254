import { encodeHex } from "./hex.ts";

/** An opaque random id with a readable prefix: `ws_…`, `key_…`, `res_…`. */
export function newId(prefix: string): string {
  return `${prefix}_${encodeHex(crypto.getRandomValues(new Uint8Array(10)))}`;
}

/** Could be an id `newId(prefix)` made: the prefix, an underscore and 20 hex digits. */
export function looksLikeId(prefix: string, value: string): boolean {
  return value.length === prefix.length + 21 && value.startsWith(`${prefix}_`) &&
    /^[0-9a-f]{20}$/.test(value.slice(prefix.length + 1));
}
