import assert from "node:assert/strict";
import { assembleAnswer } from "./assemble_answer.ts";
import { cleanName } from "./clean_name.ts";
import type { CleanedName } from "./cleaned_name.ts";
import { isParticle, PARTICLES } from "./particles.ts";
import { ruleReading } from "./rule_reading.ts";

function rule(input: string): [string, string] {
  const c = cleanName(input) as CleanedName;
  assert.equal(c.kind, "cleaned");
  const a = assembleAnswer(c, ruleReading(c), "as-written");
  return [a.given, a.surname];
}

Deno.test("rule: first word given, the rest surname, particles with the surname", () => {
  assert.deepEqual(ruleReading(cleanName("Ada Lovel") as CleanedName), {
    order: "given-first",
    split: 1,
  });
  assert.deepEqual(rule("Ada Lovel"), ["Ada", "Lovel"]);
  assert.deepEqual(rule("Ada Maria Lovel"), ["Ada", "Maria Lovel"]);
  assert.deepEqual(rule("Jan van der Velde"), ["Jan", "van der Velde"]);
  assert.deepEqual(rule("Rosa de la Peña"), ["Rosa", "de la Peña"]);
  assert.deepEqual(rule("Omar bin Yusuf"), ["Omar", "bin Yusuf"]);
  assert.deepEqual(rule("Luis Ortega y Gasset"), ["Luis", "Ortega y Gasset"]);
});

Deno.test("rule: a fixed split wins", () => {
  assert.deepEqual(rule("Lovel, Ada Maria"), ["Ada Maria", "Lovel"]);
  assert.deepEqual(rule("van der Velde, Jan"), ["Jan", "van der Velde"]);
  assert.deepEqual(rule("周杰伦"), ["杰伦", "周"]);
  assert.deepEqual(ruleReading(cleanName("周杰伦") as CleanedName), {
    order: "surname-first",
    split: 1,
  });
});

Deno.test("particles list", () => {
  for (
    const p of ["van", "von", "de", "da", "di", "del", "della", "du", "le", "la", "bin", "ibn"]
  ) {
    assert.ok(PARTICLES.has(p), p);
  }
  for (const p of ["al", "ter", "ten", "y", "Van", "DE"]) assert.ok(isParticle(p), p);
  assert.ok(!isParticle("Smith"));
});
