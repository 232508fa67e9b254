import assert from "node:assert/strict";
import { foldSpelling } from "./fold_spelling.ts";

Deno.test("folded: lower case, diacritics removed", () => {
  assert.equal(foldSpelling("José Müller-Lüdenscheidt"), "jose muller-ludenscheidt");
  assert.equal(foldSpelling("ÇAĞLAR Şahin"), "caglar sahin");
  assert.equal(foldSpelling("Nguyễn Thị Ánh"), "nguyen thi anh");
  assert.equal(foldSpelling("José Ñúñez"), "jose nunez");
  assert.equal(foldSpelling("Anna O'Hara"), "anna o'hara");
});

Deno.test("folded: letters that do not decompose", () => {
  assert.equal(foldSpelling("Straße"), "strasse");
  assert.equal(foldSpelling("Søren Ærø"), "soren aero");
  assert.equal(foldSpelling("Œuvray"), "oeuvray");
  assert.equal(foldSpelling("Łukasz Wałęsa"), "lukasz walesa");
  assert.equal(foldSpelling("Đặng Đức"), "dang duc");
  assert.equal(foldSpelling("Guðrún Þórsdóttir"), "gudrun thorsdottir");
  assert.equal(foldSpelling("Işık Ilıcak"), "isik ilicak");
  assert.equal(foldSpelling("İlker"), "ilker");
  assert.equal(
    foldSpelling("Straße Øre Æsir Łukasz Đorđe Þór"),
    "strasse ore aesir lukasz dorde thor",
  );
});

Deno.test("folded: other scripts are lower-cased and kept", () => {
  assert.equal(foldSpelling("Ольга"), "ольга");
  assert.equal(foldSpelling("王小明"), "王小明");
  assert.equal(foldSpelling("김민준"), "김민준");
  assert.equal(foldSpelling("ガブリエル"), "ガブリエル");
});

Deno.test("foldSpelling: a mojibake word folds as the word it stands for", () => {
  assert.equal(foldSpelling("Nguyá»…n Thá»‹"), "nguyen thi");
  assert.equal(foldSpelling("AndrÃ© MÃ¼ller"), "andre muller");
  assert.equal(foldSpelling("Ã“ NÃ©ill"), "o neill");
});
