import { encodeHex } from "./hex.ts";

/** An opaque random id with a readable prefix: `ws_…`, `key_…`, `res_…`. */
export function newId(prefix: string): string {
  return `${prefix}_${encodeHex(crypto.getRandomValues(new Uint8Array(10)))}`;
}
