import assert from "node:assert/strict";
import { createHostSessionSlots } from "./host_session_slots.ts";

Deno.test("host session slots: at most N at a host, the rest wait in order", async () => {
  const slots = createHostSessionSlots(2);
  const never = new AbortController().signal;
  const a = await slots.acquire("mx.acme.test", never);
  const b = await slots.acquire("MX.ACME.TEST", never);
  assert.equal(slots.active("mx.acme.test"), 2);
  // Another host is not held up.
  const other = await slots.acquire("mx.other.test", never);
  const order: string[] = [];
  const c = slots.acquire("mx.acme.test", never).then((release) => (order.push("c"), release));
  const d = slots.acquire("mx.acme.test", never).then((release) => (order.push("d"), release));
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(order, []);
  a();
  a(); // a second release of the same slot frees nothing more
  const releaseC = await c;
  assert.deepEqual(order, ["c"]);
  assert.equal(slots.active("mx.acme.test"), 2);
  b();
  const releaseD = await d;
  assert.deepEqual(order, ["c", "d"]);
  releaseC();
  releaseD();
  other();
  assert.equal(slots.active("mx.acme.test"), 0);
  assert.equal(slots.active("mx.other.test"), 0);
});

Deno.test("host session slots: a wait ends with the lookup's deadline", async () => {
  const slots = createHostSessionSlots(1);
  const held = await slots.acquire("mx.acme.test", new AbortController().signal);
  const deadline = new AbortController();
  const waiting = slots.acquire("mx.acme.test", deadline.signal);
  deadline.abort(new Error("lookup deadline"));
  await assert.rejects(waiting, /lookup deadline/);
  held();
  // The abandoned wait does not hold the slot.
  const next = await slots.acquire("mx.acme.test", new AbortController().signal);
  assert.equal(slots.active("mx.acme.test"), 1);
  next();
  assert.throws(() => createHostSessionSlots(0), RangeError);
});
