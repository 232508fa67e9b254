/**
 * The frame of every reverse lookup: the whole lookup (all its requests) under one deadline; a
 * `LookupFailure` (a provider's refusal, with a message safe to return) or any other failure (a
 * timeout, an unreachable host) becomes an `unavailable` answer, never an exception.
 */
import { unreachableMessage } from "../unreachable_message.ts";
import type { ReverseLookupAnswer, ReverseLookupUnavailable } from "./port.ts";

/** A failure whose message is safe to return: never an address, a hash, a key or provider text. */
export class LookupFailure extends Error {
  constructor(readonly why: ReverseLookupUnavailable, message: string) {
    super(message);
  }
}

export async function lookupWithDeadline(
  provider: string,
  timeoutMs: number,
  run: (signal: AbortSignal) => Promise<ReverseLookupAnswer>,
): Promise<ReverseLookupAnswer> {
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new DOMException("lookup timed out", "TimeoutError")),
    timeoutMs,
  );
  try {
    return await run(deadline.signal);
  } catch (error) {
    if (error instanceof LookupFailure) {
      return { kind: "unavailable", why: error.why, message: error.message };
    }
    return {
      kind: "unavailable",
      why: "timeout",
      message: unreachableMessage(provider, error, timeoutMs),
    };
  } finally {
    clearTimeout(timer);
  }
}
