/**
 * The local part of the catch-all probe: 20 random lower-case alphanumerics, a mailbox that
 * exists nowhere. One lookup uses one probe address throughout, its greylisting retry included.
 */
const LOCAL_PART_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** 20 random lower-case alphanumerics: a mailbox that exists nowhere. */
export function randomLocalPart(length = 20): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  // 252 = 7 × 36: reject bytes above it so every character is equally likely.
  let out = "";
  for (const byte of bytes) {
    if (byte < 252) out += LOCAL_PART_ALPHABET[byte % 36];
  }
  return out.length >= length ? out : out + randomLocalPart(length - out.length);
}
