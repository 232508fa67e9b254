/**
 * A request whose body the server has already read in full (http_server.ts reads bodies with a
 * Content-Length under its idle timeout): the same Request object, its body readers answering
 * from the bytes read.
 *
 * Building a new Request around the bytes instead (`new Request(url, { method, headers, body })`)
 * copies and re-validates every header: measured on the billed single parse, that copy was 6–7 %
 * of the service's main-thread time. Here only the body readers are replaced (own properties
 * shadowing Request.prototype), so headers, url, method and signal stay the original's.
 */
export function withBufferedBody(request: Request, bytes: Uint8Array<ArrayBuffer>): Request {
  let stream: ReadableStream<Uint8Array<ArrayBuffer>> | null = null;
  let used = false;
  /** Each read gets its own copy: a reader may transfer or change what it is given. */
  const copy = () => {
    used = true;
    return bytes.slice();
  };
  const asResponse = () =>
    new Response(copy(), {
      headers: { "content-type": request.headers.get("content-type") ?? "" },
    });
  Object.defineProperties(request, {
    body: {
      get: () => (stream ??= new Response(bytes).body as ReadableStream<Uint8Array<ArrayBuffer>>),
    },
    bodyUsed: { get: () => used || (stream?.locked ?? false) },
    arrayBuffer: { value: () => Promise.resolve(copy().buffer) },
    bytes: { value: () => Promise.resolve(copy()) },
    text: { value: () => Promise.resolve(new TextDecoder().decode(copy())) },
    json: {
      value: () => {
        try {
          return Promise.resolve(JSON.parse(new TextDecoder().decode(copy())));
        } catch (error) {
          return Promise.reject(error);
        }
      },
    },
    blob: { value: () => asResponse().blob() },
    formData: { value: () => asResponse().formData() },
    clone: {
      value: () =>
        withBufferedBody(
          new Request(request.url, {
            method: request.method,
            headers: request.headers,
            signal: request.signal,
          }),
          bytes,
        ),
    },
  });
  return request;
}
