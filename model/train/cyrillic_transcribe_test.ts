import assert from "node:assert/strict";
import { transcribeEnglish, transcribeGerman } from "./cyrillic_transcribe.ts";

Deno.test("English and German names spelled in Cyrillic by rule", () => {
  assert.equal(transcribeEnglish("Johnson"), "Джонсон");
  assert.equal(transcribeEnglish("Wilson"), "Уилсон");
  assert.equal(transcribeEnglish("Smith"), "Смит");
  assert.equal(transcribeEnglish("Hunter"), "Хантер");
  assert.equal(transcribeEnglish("Anderson"), "Андерсон");
  assert.equal(transcribeGerman("Schneider"), "Шнайдер");
  assert.equal(transcribeGerman("Zimmermann"), "Циммерманн");
  assert.equal(transcribeGerman("Steinbach"), "Штайнбах");
  assert.equal(transcribeEnglish("O'Neil"), null);
});
