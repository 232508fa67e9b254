import assert from "node:assert/strict";
import { Hono } from "hono";
import { ServiceError } from "../domain/errors.ts";
import { limitBody } from "../routes/middleware/limit_body.ts";

function app() {
  const hono = new Hono();
  hono.onError((error) =>
    error instanceof ServiceError
      ? Response.json({ code: error.code, message: error.message }, { status: 400 })
      : new Response(String(error), { status: 500 })
  );
  hono.use("*", limitBody(10, "too large"));
  hono.post("/", async (c) => c.text(await c.req.text()));
  hono.get("/", (c) => c.text("no body"));
  return hono;
}

/** A body sent in chunks, without a Content-Length. */
function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 4) controller.enqueue(bytes.slice(i, i + 4));
      controller.close();
    },
  });
}

Deno.test("limitBody: a body within the limit passes, by Content-Length or chunked", async () => {
  const withLength = await app().request("/", {
    method: "POST",
    headers: { "content-length": "5" },
    body: "hello",
  });
  assert.equal(await withLength.text(), "hello");
  const streamed = await app().request("/", { method: "POST", body: chunked("0123456789") });
  assert.equal(await streamed.text(), "0123456789");
  assert.equal(await (await app().request("/")).text(), "no body");
});

Deno.test("limitBody: a larger body is refused with the message, announced or counted", async () => {
  const announced = await app().request("/", {
    method: "POST",
    headers: { "content-length": "11" },
    body: "hello world",
  });
  assert.equal(announced.status, 400);
  assert.deepEqual(await announced.json(), { code: "validation_error", message: "too large" });
  const counted = await app().request("/", { method: "POST", body: chunked("hello world!") });
  assert.equal(counted.status, 400);
  assert.deepEqual(await counted.json(), { code: "validation_error", message: "too large" });
});
