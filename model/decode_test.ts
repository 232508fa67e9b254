import assert from "node:assert/strict";
import { decodeName, doubledSyllableRuledOut, scoreReadings } from "./decode.ts";

/** Label probabilities (GIVEN, MIDDLE, PARTICLE, SURNAME) per word from P(surname) per word. */
function probs(surname: number[]): Float32Array {
  const out = new Float32Array(surname.length * 4);
  surname.forEach((s, i) => {
    out[i * 4] = 1 - s;
    out[i * 4 + 3] = s;
  });
  return out;
}

const pinyin = new Set(["ting", "ge", "sun", "li", "na", "wang"]);
const isSyllable = (w: string) => pinyin.has(w.toLowerCase());

Deno.test("doubled syllables: the pair is never all surname, and split only beside a one-word surname", () => {
  // "Ge Ge Sun": given-first split 1 ("Ge | Ge Sun") and surname-first split 2 ("Ge Ge" as the
  // surname) are ruled out; "Ge Ge | Sun" and "Ge | Ge Sun" (surname Ge, given Ge Sun) stay
  assert.deepEqual([...doubledSyllableRuledOut(["Ge", "Ge", "Sun"], isSyllable)!], [1, 0, 0, 1]);
  // "Sun Ge Ge": "Sun | Ge Ge" given-first (surname Ge Ge) and "Sun Ge | Ge" surname-first go
  assert.deepEqual([...doubledSyllableRuledOut(["Sun", "GE", "ge"], isSyllable)!], [
    1,
    0,
    0,
    1,
  ]);
  // not syllables, not alike, or only two words: no rule
  assert.equal(doubledSyllableRuledOut(["Ahmed", "Ali", "Ali"], isSyllable), null);
  assert.equal(doubledSyllableRuledOut(["Ting", "Li", "Wang"], isSyllable), null);
  assert.equal(doubledSyllableRuledOut(["Li", "Li"], isSyllable), null);
  assert.equal(doubledSyllableRuledOut(["Ge", "Ge", "Sun"], undefined), null);
});

Deno.test("doubled syllables: the decoder takes the best reading the rule leaves", () => {
  // the network leans to "Ge | Ge Sun" (given Ge, surname Ge Sun)
  const words = ["Ge", "Ge", "Sun"];
  const p = probs([0.2, 0.6, 0.95]);
  const free = decodeName(words, p, 0, 4);
  assert.deepEqual([free.order, free.split], ["given-first", 1]);
  const ruled = decodeName(words, p, 0, 4, undefined, 1, isSyllable);
  assert.deepEqual([ruled.order, ruled.split], ["given-first", 2]);
  // scoreReadings (the training report) agrees with decodeName
  const { readings } = scoreReadings(words, p, 0, 4, isSyllable);
  assert.deepEqual([readings[0].order, readings[0].split], ["given-first", 2]);
  assert.ok(readings.every((r) => !(r.order === "given-first" && r.split === 1)));
  assert.ok(Math.abs(readings[0].p - ruled.confidence) < 1e-9);
  // "Li Li Na" read as surname Li, given Li Na stays a reading
  const li = decodeName(
    ["Li", "Li", "Na"],
    probs([0.9, 0.1, 0.05]),
    0,
    4,
    undefined,
    1,
    isSyllable,
  );
  assert.deepEqual([li.order, li.split], ["surname-first", 1]);
});
