/**
 * One GET to a web-search provider within a deadline: the status, headers and body text, or
 * `timeout` when no whole answer came in time or the request failed on the network. The deadline
 * covers reading the body too. A fetch error is never passed on: its text names the request URL,
 * which carries the query (and, for SerpApi, the key).
 */

export type FetchedAnswer =
  | { kind: "answer"; status: number; headers: Headers; text: string }
  | { kind: "timeout" };

export async function fetchAnswer(
  doFetch: typeof fetch,
  url: URL,
  options: { headers: Record<string, string>; timeoutMs: number },
): Promise<FetchedAnswer> {
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new DOMException("search timed out", "TimeoutError")),
    options.timeoutMs,
  );
  try {
    const response = await doFetch(url, { headers: options.headers, signal: deadline.signal });
    const text = await response.text();
    return { kind: "answer", status: response.status, headers: response.headers, text };
  } catch {
    return { kind: "timeout" };
  } finally {
    clearTimeout(timer);
  }
}
