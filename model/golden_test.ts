import assert from "node:assert/strict";
import { GOLDEN } from "./golden_cases.ts";
import { loadNameModel } from "./load_name_model.ts";

function readingOf(words: string[], given: string, surname: string) {
  const g = given.split(" ").length;
  const s = surname.split(" ").length;
  assert.equal(g + s, words.length, `golden case words do not add up: ${words.join(" ")}`);
  if (words.slice(0, g).join(" ") === given) return { order: "given-first", split: g };
  assert.equal(
    words.slice(0, s).join(" "),
    surname,
    `golden case is not a reading: ${words.join(" ")}`,
  );
  return { order: "surname-first", split: s };
}

Deno.test("golden names: every plain case reads right, most hard cases too", async () => {
  const loaded = await loadNameModel();
  assert.ok(loaded.model, `model not loaded: ${"reason" in loaded ? loaded.reason : ""}`);
  const model = loaded.model!;
  const inputs = GOLDEN.map((c) => ({ words: c.words.split(" ") }));
  const readings = await model.readMany(inputs);
  const missesPlain: string[] = [];
  const missesHard: string[] = [];
  GOLDEN.forEach((c, i) => {
    const want = readingOf(inputs[i].words, c.given, c.surname);
    const got = readings[i];
    if (got.order !== want.order || got.split !== want.split) {
      const line = `${c.words}: want ${want.order}/${want.split}, got ${got.order}/${got.split} ` +
        `(${got.confidence.toFixed(3)})`;
      (c.hard ? missesHard : missesPlain).push(line);
    }
  });
  const hard = GOLDEN.filter((c) => c.hard).length;
  if (missesHard.length) {
    console.log(`hard misses (${missesHard.length}/${hard}):\n  ${missesHard.join("\n  ")}`);
  }
  assert.deepEqual(missesPlain, []);
  assert.ok(missesHard.length <= Math.floor(hard * 0.5), `too many hard misses`);
});

Deno.test("golden names: confidence is a probability and constraints are honoured", async () => {
  const { model } = await loadNameModel();
  assert.ok(model);
  const [free, forced] = await model.readMany([
    { words: ["Doe", "John", "A."] },
    { words: ["Doe", "John", "A."], constraint: { order: "surname-first", split: 1 } },
  ]);
  assert.ok(free.confidence >= 0 && free.confidence <= 1);
  assert.equal(forced.order, "surname-first");
  assert.equal(forced.split, 1);
  assert.ok(forced.confidence >= 0 && forced.confidence <= 1);
  assert.ok(model.threshold > 0 && model.threshold < 1);
  assert.match(model.version, /^name-tagger-/);
});
