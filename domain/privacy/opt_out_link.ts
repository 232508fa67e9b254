/**
 * The confirmation link of an opt-out: a token that carries the address sealed (AES-256-GCM
 * under a key derived from the server secret, HKDF-SHA256 info `opt-out-link v1`, as webhook
 * secrets are sealed), with when it stops working and a random id. Sealed rather than signed
 * because the link travels by mail and sits in the person's mailbox and in web logs: it must not
 * show the address. Authenticated encryption is the signature: an altered or forged token does
 * not open. Nothing is stored when a link is made; following it records its id
 * (`opt_out_tokens_used`), so it works once.
 *
 * Token form: `<base64url iv>.<base64url ciphertext and tag>`.
 */
import { Buffer } from "node:buffer";

const LINK_INFO = "opt-out-link v1";
const IV_BYTES = 12;

export interface OptOutClaim {
  email: string;
  tokenId: string;
  expiresAt: Date;
}

export interface OptOutLinks {
  /** A token for this address, working until `expiresAt`. */
  issue(input: { email: string; expiresAt: Date }): Promise<string>;
  /** The claim a token carries, or null when it does not open or has expired. */
  open(input: { token: string; now: Date }): Promise<OptOutClaim | null>;
}

export function createOptOutLinks(serverSecret: string): OptOutLinks {
  let key: Promise<CryptoKey> | null = null;
  const linkKey = () => (key ??= deriveKey(serverSecret));
  return {
    async issue({ email, expiresAt }) {
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const tokenId = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString(
        "base64url",
      );
      const payload = JSON.stringify({ e: email, x: expiresAt.getTime(), j: tokenId });
      const sealed = await crypto.subtle.encrypt(
        { name: "AES-GCM", iv },
        await linkKey(),
        new TextEncoder().encode(payload),
      );
      return `${b64(iv)}.${b64(new Uint8Array(sealed))}`;
    },
    async open({ token, now }) {
      const [iv, body, ...rest] = token.trim().split(".");
      if (!iv || !body || rest.length > 0 || token.length > 2048) return null;
      try {
        const plain = await crypto.subtle.decrypt(
          { name: "AES-GCM", iv: bytes(iv) },
          await linkKey(),
          bytes(body),
        );
        const claim = JSON.parse(new TextDecoder().decode(plain)) as {
          e: string;
          x: number;
          j: string;
        };
        if (typeof claim.e !== "string" || typeof claim.j !== "string") return null;
        if (!(claim.x > now.getTime())) return null;
        return { email: claim.e, tokenId: claim.j, expiresAt: new Date(claim.x) };
      } catch {
        return null;
      }
    },
  };
}

async function deriveKey(serverSecret: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(serverSecret),
    "HKDF",
    false,
    ["deriveKey"],
  );
  return crypto.subtle.deriveKey(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: new Uint8Array(0),
      info: new TextEncoder().encode(LINK_INFO),
    },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

function b64(data: Uint8Array): string {
  return Buffer.from(data).toString("base64url");
}

function bytes(text: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(text, "base64url"));
}
