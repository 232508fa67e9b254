/**
 * Webhook signing secrets sealed at rest: AES-256-GCM under a key derived from the server secret
 * (HKDF-SHA256, info `webhook-secret-seal v1`), a fresh 12-byte random IV per seal, and the
 * endpoint's id as additional authenticated data, so a sealed value opens only on its own
 * endpoint's row. The secret must be read back to sign each delivery, so it cannot be hashed; a
 * database dump without the server secret holds nothing that signs (docs/decisions/0019).
 *
 * Stored form: `v1.<base64url iv>.<base64url ciphertext and tag>`.
 */
import { Buffer } from "node:buffer";

const SEAL_INFO = "webhook-secret-seal v1";
const VERSION = "v1";
const IV_BYTES = 12;

export interface SecretSeal {
  /** Seals an endpoint's signing secret for its row. */
  seal(endpointId: string, secret: string): Promise<string>;
  /** Opens a sealed value of this endpoint; throws `SealedSecretError` when it does not authenticate. */
  open(endpointId: string, sealed: string): Promise<string>;
}

/** Names the endpoint only: never the secret, nor the sealed value. */
export class SealedSecretError extends Error {
  constructor(endpointId: string) {
    super(
      `The webhook secret of endpoint ${endpointId} does not open: sealed under another server ` +
        "secret (SVC_SECRET), for another endpoint, or altered",
    );
    this.name = "SealedSecretError";
  }
}

export function createSecretSeal(serverSecret: string): SecretSeal {
  let key: Promise<CryptoKey> | null = null;
  const sealKey = () => (key ??= deriveSealKey(serverSecret));
  return {
    async seal(endpointId, secret) {
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const sealed = await crypto.subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: utf8(endpointId) },
        await sealKey(),
        utf8(secret),
      );
      return `${VERSION}.${base64url(iv)}.${base64url(sealed)}`;
    },
    async open(endpointId, sealed) {
      const [version, iv, body, ...rest] = sealed.split(".");
      if (version !== VERSION || !iv || !body || rest.length > 0) {
        throw new SealedSecretError(endpointId);
      }
      try {
        const plain = await crypto.subtle.decrypt(
          { name: "AES-GCM", iv: bytes(iv), additionalData: utf8(endpointId) },
          await sealKey(),
          bytes(body),
        );
        return new TextDecoder().decode(plain);
      } catch {
        throw new SealedSecretError(endpointId);
      }
    },
  };
}

async function deriveSealKey(serverSecret: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", utf8(serverSecret), "HKDF", false, [
    "deriveKey",
  ]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: utf8(SEAL_INFO) },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

function utf8(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;
}

function base64url(data: Uint8Array | ArrayBuffer): string {
  return Buffer.from(data instanceof Uint8Array ? data : new Uint8Array(data)).toString(
    "base64url",
  );
}

function bytes(text: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(text, "base64url"));
}
