const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

export function encodeHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += HEX[byte];
  return out;
}
