import assert from "node:assert/strict";
import { splitUnspacedName } from "./split_unspaced_name.ts";

Deno.test("Chinese: single and compound surnames, simplified and traditional", () => {
  assert.deepEqual(splitUnspacedName("张伟"), { surname: "张", given: "伟" });
  assert.deepEqual(splitUnspacedName("陈嘉欣"), { surname: "陈", given: "嘉欣" });
  assert.deepEqual(splitUnspacedName("陳嘉欣"), { surname: "陳", given: "嘉欣" });
  assert.deepEqual(splitUnspacedName("欧阳娜娜"), { surname: "欧阳", given: "娜娜" });
  assert.deepEqual(splitUnspacedName("上官婉"), { surname: "上官", given: "婉" });
  assert.deepEqual(splitUnspacedName("諸葛瑾"), { surname: "諸葛", given: "瑾" });
});

Deno.test("four kanji split 2 + 2; unlisted or long strings are not split", () => {
  assert.deepEqual(splitUnspacedName("佐藤健太"), { surname: "佐藤", given: "健太" });
  assert.equal(splitUnspacedName("佐藤健"), "unsupported");
  assert.equal(splitUnspacedName("長谷川健太郎"), "unsupported");
  assert.equal(splitUnspacedName("张"), "unsupported");
});

Deno.test("Korean: single and compound surnames", () => {
  assert.deepEqual(splitUnspacedName("이서연"), { surname: "이", given: "서연" });
  assert.deepEqual(splitUnspacedName("정우"), { surname: "정", given: "우" });
  assert.deepEqual(splitUnspacedName("남궁선"), { surname: "남궁", given: "선" });
  assert.deepEqual(splitUnspacedName("황보민아"), { surname: "황보", given: "민아" });
  assert.deepEqual(splitUnspacedName("선우재덕"), { surname: "선우", given: "재덕" });
  // Three syllables with an ambiguous compound read as surname + two-syllable name.
  assert.deepEqual(splitUnspacedName("황보은"), { surname: "황", given: "보은" });
  assert.equal(splitUnspacedName("뷁뷁"), "unsupported");
});

Deno.test("other unspaced scripts are unsupported; Latin is not this function's business", () => {
  assert.equal(splitUnspacedName("ประยุทธ์"), "unsupported");
  assert.equal(splitUnspacedName("すずき"), "unsupported");
  assert.equal(splitUnspacedName("Zhangwei"), null);
  assert.equal(splitUnspacedName("Иванов"), null);
});
