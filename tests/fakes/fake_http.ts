/** Small pieces every fake HTTP provider shares: a JSON answer, and a wait that ends on close. */

/** A JSON answer with the given status and extra headers. */
export function jsonAnswer(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/** Waits `ms`, or less when the fake is closing (so a `slow` fake never holds a test up). */
export function sleep(ms: number, closing: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (closing.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      closing.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    closing.addEventListener("abort", done);
  });
}
