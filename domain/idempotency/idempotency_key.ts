import { ServiceError } from "../errors.ts";

/** 1 to 255 printable ASCII characters (spec §4.9). */
const PRINTABLE_ASCII = /^[\x20-\x7e]{1,255}$/;

export const IDEMPOTENCY_KEY_RULE = "Idempotency-Key must be 1 to 255 printable ASCII characters";

/** `undefined` when the header is absent; a validation_error when present but malformed. */
export function readIdempotencyKey(header: string | null | undefined): string | undefined {
  if (header === null || header === undefined) return undefined;
  if (!PRINTABLE_ASCII.test(header)) {
    throw new ServiceError("validation_error", IDEMPOTENCY_KEY_RULE);
  }
  return header;
}
