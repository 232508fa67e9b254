import assert from "node:assert/strict";
import { assembleAnswer } from "./assemble_answer.ts";
import { cleanName } from "./clean_name.ts";
import type { CleanedName } from "./cleaned_name.ts";

function clean(input: string): CleanedName {
  const c = cleanName(input);
  assert.equal(c.kind, "cleaned");
  return c as CleanedName;
}

Deno.test("given-first readings", () => {
  const c = clean("Ada Maria Lovel Quinn");
  assert.deepEqual(assembleAnswer(c, { order: "given-first", split: 2 }, "as-written"), {
    given: "Ada Maria",
    surname: "Lovel Quinn",
    nickname: null,
  });
});

Deno.test("surname-first readings give the given words in the order written", () => {
  assert.deepEqual(
    assembleAnswer(clean("Sato Kenji"), { order: "surname-first", split: 1 }, "as-written"),
    { given: "Kenji", surname: "Sato", nickname: null },
  );
  assert.deepEqual(
    assembleAnswer(clean("Tran Thi Mai"), { order: "surname-first", split: 1 }, "as-written"),
    { given: "Thi Mai", surname: "Tran", nickname: null },
  );
  assert.deepEqual(
    assembleAnswer(clean("Nagy Kovács Éva"), { order: "surname-first", split: 2 }, "as-written"),
    { given: "Éva", surname: "Nagy Kovács", nickname: null },
  );
});

Deno.test("nickname words always land in the given name, in their position", () => {
  const c = clean('Walter "Wally" Kern Lutz');
  assert.deepEqual(assembleAnswer(c, { order: "given-first", split: 1 }, "as-written"), {
    given: "Walter Wally",
    surname: "Kern Lutz",
    nickname: "Wally",
  });
  const multi = clean('Walter "Iron Wall" Kern');
  assert.deepEqual(assembleAnswer(multi, { order: "given-first", split: 1 }, "as-written"), {
    given: "Walter Iron Wall",
    surname: "Kern",
    nickname: "Iron Wall",
  });
  const sf = clean('Kern "Wally" Walter');
  assert.deepEqual(assembleAnswer(sf, { order: "surname-first", split: 2 }, "as-written"), {
    given: "Wally Walter",
    surname: "Kern",
    nickname: "Wally",
  });
});

Deno.test("the surname is never left empty by moving nickname words", () => {
  const c = clean('Walter Kern "Wally"');
  assert.deepEqual(assembleAnswer(c, { order: "given-first", split: 2 }, "as-written"), {
    given: "Walter Wally",
    surname: "Kern",
    nickname: "Wally",
  });
});

Deno.test("folded spelling applies to given, surname and nickname", () => {
  const c = clean('Zoë "Zézé" Ångström');
  assert.deepEqual(assembleAnswer(c, { order: "given-first", split: 1 }, "folded"), {
    given: "zoe zeze",
    surname: "angstrom",
    nickname: "zeze",
  });
  assert.deepEqual(assembleAnswer(c, { order: "given-first", split: 1 }, "as-written"), {
    given: "Zoë Zézé",
    surname: "Ångström",
    nickname: "Zézé",
  });
});

Deno.test("comma-inverted and unspaced names with their fixed split", () => {
  const inv = clean("Lovel, Ada B.");
  assert.deepEqual(assembleAnswer(inv, inv.fixed!, "as-written"), {
    given: "Ada B.",
    surname: "Lovel",
    nickname: null,
  });
  const zh = clean("欧阳明远");
  assert.deepEqual(assembleAnswer(zh, zh.fixed!, "as-written"), {
    given: "明远",
    surname: "欧阳",
    nickname: null,
  });
});

Deno.test("an out-of-range split is clamped so both blocks are non-empty", () => {
  const c = clean("Ada Lovel");
  assert.deepEqual(assembleAnswer(c, { order: "given-first", split: 5 }, "as-written"), {
    given: "Ada",
    surname: "Lovel",
    nickname: null,
  });
});
