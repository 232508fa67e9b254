import assert from "node:assert/strict";
import type { NameModel, NameModelInput } from "../../model/types.ts";
import { looksLikeMojibake, repairMojibake } from "./mojibake.ts";
import { readNames } from "./read_names.ts";

/** What a UTF-8 word looks like read as Windows-1252 (bytes 0x80–0x9F through its table). */
function misread(word: string): string {
  const cp1252 = new TextDecoder("windows-1252");
  return [...new TextEncoder().encode(word)].map((b) =>
    b >= 0x80 && b < 0xa0 && ![0x81, 0x8d, 0x8f, 0x90, 0x9d].includes(b)
      ? cp1252.decode(new Uint8Array([b]))
      : String.fromCharCode(b)
  ).join("");
}

Deno.test("repairMojibake reads a misread word back, two- and three-byte letters", () => {
  for (
    const word of ["André", "Żaneta", "Müller", "Łukasz", "Šimon", "Nguyễn", "Đặng", "Ó", "Ní"]
  ) {
    const written = misread(word);
    assert.ok(looksLikeMojibake(written), written);
    assert.equal(repairMojibake(written), word, written);
  }
  for (const word of ["André", "Ângela", "Ãnia", "ÂBC", "Smith", "Ó", "Nguyễn"]) {
    assert.equal(repairMojibake(word), null, word);
  }
});

Deno.test("the model reads a mojibake word as the word it stands for; the answer keeps it", async () => {
  const seen: string[][] = [];
  const model: NameModel = {
    version: "test",
    threshold: 0.5,
    readMany(inputs: readonly NameModelInput[]) {
      for (const input of inputs) seen.push([...input.words]);
      return Promise.resolve(
        inputs.map(() => ({
          order: "given-first" as const,
          split: 1,
          confidence: 0.99,
          bothOrders: false,
        })),
      );
    },
  };
  const name = `Eoin ${misread("Ó")} ${misread("Néill")}`;
  const [outcome] = await readNames(model, [name], "as-written");
  assert.deepEqual(seen, [["Eoin", "Ó", "Néill"]]);
  assert.equal(outcome.kind, "answer");
  if (outcome.kind === "answer") {
    assert.equal(outcome.answer.given, "Eoin");
    assert.equal(outcome.answer.surname, `${misread("Ó")} ${misread("Néill")}`);
  }
});
