/**
 * Names put together at random from the pieces that trip cleaning up (quotes of every kind,
 * brackets, commas, bars, titles, credentials, job titles, addresses, particles, initials,
 * pronouns, mojibake, invisible and compatibility characters, CJK, emoji) go through the whole
 * service path (`readNames`: cleaning, the bundled model, the rule) in batches of 100, both
 * spellings. Every name gets an answer or a refusal, never an exception (an exception is a 500 for
 * the whole batch), and every answer has a given name and a surname. Seeded, so a failure names
 * its input.
 */
import { mulberry32 } from "../domain/shared/mulberry32.ts";
import assert from "node:assert/strict";
import { loadNameModel } from "../model/mod.ts";
import { readNames } from "../domain/name_parse/read_names.ts";
import type { NameOutcome } from "../domain/name_parse/name_answer.ts";

const PIECES = [
  "Jane",
  "Roe",
  "Rick",
  "van",
  "de",
  "la",
  "Da",
  "Zhi",
  "y",
  "and",
  "&",
  "O'",
  "Mc",
  "Ó",
  "Ní",
  "bin",
  "al-",
  "St.",
  "Dr.",
  "Mr.",
  "Mrs.",
  "PhD",
  "MD",
  "RN",
  "BSN",
  "Esq.",
  "Jr.",
  "III",
  "Ⅲ",
  "J.",
  "K",
  "x",
  "1",
  "2nd",
  "she/her",
  "(he/him)",
  ",",
  ", ",
  ";",
  "、",
  " ",
  "  ",
  "\u00a0",
  "\u200b",
  '"',
  "'",
  "‘",
  "’",
  "“",
  "”",
  "«",
  "»",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  "<",
  ">",
  "-",
  "–",
  "—",
  ".",
  "_",
  "@",
  "|",
  "/",
  "·",
  "Nguyễn",
  "Văn",
  "王",
  "小明",
  "김",
  "AndrÃ©",
  "Ã“",
  "á»³",
  "ß",
  "İ",
  "ǅ",
  "ﬁ",
  "🚀",
  "jane@example.com",
  "https://example.com",
  "www.example.com",
  "@jane",
  "CEO",
  "at",
  "of",
  "née",
  "aka",
  "Inc.",
  "LLC",
  "S.A.",
];

function composeNames(seed: number, count: number): string[] {
  const next = mulberry32(seed);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const pieces = 1 + Math.floor(next() * 9);
    let name = "";
    for (let k = 0; k < pieces; k++) {
      name += PIECES[Math.floor(next() * PIECES.length)] + (next() < 0.6 ? " " : "");
    }
    names.push(name);
  }
  return names;
}

/** Reads the batch; on an exception, finds the names that throw alone. */
async function readOrName(
  read: (names: string[]) => Promise<NameOutcome[]>,
  batch: string[],
): Promise<{ outcomes: NameOutcome[] | null; throwing: string[] }> {
  try {
    return { outcomes: await read(batch), throwing: [] };
  } catch {
    const throwing: string[] = [];
    for (const name of batch) {
      try {
        await read([name]);
      } catch (e) {
        throwing.push(`${JSON.stringify(name)}: ${e}`);
      }
    }
    return { outcomes: null, throwing };
  }
}

Deno.test("name fuzz: random pieces of names always answer or refuse, never throw", async () => {
  const { model } = await loadNameModel();
  assert.ok(model, "the bundled model loads");
  // FUZZ_SEED and FUZZ_ROUNDS (names) compose other names, for a longer search
  const names = composeNames(
    Number(Deno.env.get("FUZZ_SEED") ?? 20261126),
    Number(Deno.env.get("FUZZ_ROUNDS") ?? 12_000),
  );
  const throwing: string[] = [];
  const badAnswers: string[] = [];
  let answered = 0, refused = 0;
  for (const spelling of ["as-written", "folded"] as const) {
    const read = (batch: string[]) => readNames(model, batch, spelling);
    for (let i = 0; i < names.length; i += 100) {
      const batch = names.slice(i, i + 100);
      const { outcomes, throwing: thrown } = await readOrName(read, batch);
      throwing.push(...thrown);
      if (outcomes === null) continue;
      assert.equal(outcomes.length, batch.length);
      outcomes.forEach((o, j) => {
        if (o.kind === "refused") return void refused++;
        answered++;
        if (o.answer.given.trim() === "" || o.answer.surname.trim() === "") {
          badAnswers.push(`${JSON.stringify(batch[j])} → ${o.answer.given} | ${o.answer.surname}`);
        }
      });
    }
  }
  assert.deepEqual(throwing.slice(0, 10), []);
  assert.deepEqual(badAnswers.slice(0, 10), []);
  // the pieces make both kinds: the test reaches the model, not only the refusals
  assert.ok(answered > 1000 && refused > 1000, `answered ${answered}, refused ${refused}`);
});

Deno.test("name fuzz: a name quoted from end to end is the name, not a nickname", async () => {
  const { model } = await loadNameModel();
  const inputs = ['"Jane Roe"', "“Jane Roe”", "'Jane Roe'", '"Jane" "Roe"', '"Jane Roe", Esq.'];
  const outcomes = await readNames(model, inputs, "as-written");
  outcomes.forEach((o, i) => {
    assert.equal(o.kind, "answer", inputs[i]);
    if (o.kind !== "answer") return;
    assert.deepEqual([o.answer.given, o.answer.surname, o.answer.nickname], ["Jane", "Roe", null]);
  });
});
