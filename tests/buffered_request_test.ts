import assert from "node:assert/strict";
import { Hono } from "hono";
import { withBufferedBody } from "../server/buffered_request.ts";

/** A request as the server hands it over: its own body read to the end, then the bytes attached. */
async function buffered(body: string, contentType: string, path = "/path?q=1"): Promise<Request> {
  const request = new Request(`http://local${path}`, {
    method: "POST",
    headers: { "content-type": contentType, "x-trace": "abc" },
    body,
  });
  const bytes = await request.bytes();
  return withBufferedBody(request, bytes);
}

Deno.test("a buffered request answers every body reader from the bytes read, as often as asked", async () => {
  const request = await buffered('{"name":"Grace Hopper"}', "application/json");
  assert.equal(request.bodyUsed, false);
  assert.deepEqual(await request.json(), { name: "Grace Hopper" });
  assert.equal(await request.text(), '{"name":"Grace Hopper"}');
  assert.equal(new TextDecoder().decode(await request.arrayBuffer()), '{"name":"Grace Hopper"}');
  assert.equal((await request.bytes()).length, 23);
  assert.equal(await (await request.blob()).text(), '{"name":"Grace Hopper"}');
  assert.equal(request.bodyUsed, true);
  // Headers, url and method are the original request's.
  assert.equal(request.headers.get("x-trace"), "abc");
  assert.equal(request.url, "http://local/path?q=1");
  assert.equal(request.method, "POST");
  assert.ok(request instanceof Request);
  assert.equal(request.signal.aborted, false);
});

Deno.test("buffered requests share one shape: two of them answer from their own bytes", async () => {
  const first = await buffered("one", "text/plain");
  const second = await buffered("two", "text/plain");
  assert.equal(Object.getPrototypeOf(first), Object.getPrototypeOf(second));
  assert.equal(await first.text(), "one");
  assert.equal(await second.text(), "two");
});

Deno.test("a buffered request: a reader's copy does not change the bytes; bad JSON rejects", async () => {
  const request = await buffered("{not json", "application/json");
  const first = await request.bytes();
  first.fill(0);
  assert.equal(await request.text(), "{not json");
  await assert.rejects(() => request.json(), SyntaxError);
});

Deno.test("a buffered request: the body stream, form data and a clone carry the same bytes", async () => {
  const form = await buffered("a=1&b=two", "application/x-www-form-urlencoded");
  assert.equal((await form.formData()).get("b"), "two");
  const clone = form.clone();
  assert.equal(clone.headers.get("x-trace"), "abc");
  assert.equal(await clone.text(), "a=1&b=two");
  const streamed = await buffered("streamed", "text/plain");
  assert.equal(await new Response(streamed.body).text(), "streamed");
});

Deno.test("Hono reads a buffered request's JSON and form bodies (validator, parseBody)", async () => {
  const app = new Hono();
  app.post("/json", async (c) => c.json(await c.req.json()));
  app.post("/form", async (c) => c.json(await c.req.parseBody()));
  const json = await app.fetch(await buffered('{"a":[1,2]}', "application/json", "/json"));
  assert.deepEqual(await json.json(), { a: [1, 2] });
  const form = await app.fetch(
    await buffered("x=1&y=2", "application/x-www-form-urlencoded", "/form"),
  );
  assert.deepEqual(await form.json(), { x: "1", y: "2" });
});
