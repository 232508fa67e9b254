/**
 * What a provider call that got no answer says in logs: a timeout or an unreachable host, by kind
 * only. A fetch error's text holds the request URL (and so an address, a hash or a key): never
 * its text.
 */
export function unreachableMessage(provider: string, error: unknown, timeoutMs: number): string {
  if (
    error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError")
  ) {
    return `${provider} did not answer within ${timeoutMs} ms`;
  }
  if (error instanceof TypeError) return `${provider} could not be reached (network error)`;
  return `${provider} lookup failed (${error instanceof Error ? error.name : typeof error})`;
}
