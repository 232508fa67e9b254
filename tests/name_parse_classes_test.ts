/**
 * The classes of name model/golden_inputs.ts lists, read through the whole service path (`readNames`: cleaning,
 * the bundled model, the rule below its threshold): every golden input gives its answer.
 */
import assert from "node:assert/strict";
import { loadNameModel } from "../model/mod.ts";
import { GOLDEN_INPUTS } from "../model/golden_inputs.ts";
import { readNames } from "../domain/name_parse/read_names.ts";

Deno.test("name classes: every golden input reads right through the service path", async () => {
  const loaded = await loadNameModel();
  assert.ok(loaded.model, "the bundled model loads");
  const outcomes = await readNames(loaded.model, GOLDEN_INPUTS.map((c) => c.input), "as-written");
  const misses: string[] = [];
  GOLDEN_INPUTS.forEach((c, i) => {
    const o = outcomes[i];
    const got = o.kind === "answer" ? `${o.answer.given} | ${o.answer.surname}` : "refused";
    const want = c.given === null ? "refused" : `${c.given} | ${c.surname}`;
    if (got !== want) misses.push(`${c.kind}: ${c.input} → ${got}, want ${want}`);
  });
  assert.deepEqual(misses, []);
});

Deno.test("name classes: a nickname as the only given name is read with its fixed split", async () => {
  const { model } = await loadNameModel();
  assert.ok(model);
  const [o] = await readNames(model, ['"Rocky" Fairweather'], "as-written");
  assert.equal(o.kind, "answer");
  if (o.kind !== "answer") return;
  assert.equal(o.answer.nickname, "Rocky");
  assert.ok(o.answer.confidence !== null && o.answer.confidence > 0.5);
  // without a model the fixed split still answers
  const [r] = await readNames(null, ['"Rocky" Fairweather', 'Fairweather, "Rocky"'], "as-written");
  assert.equal(r.kind === "answer" && `${r.answer.given}|${r.answer.surname}`, "Rocky|Fairweather");
});
