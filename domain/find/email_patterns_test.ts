import assert from "node:assert/strict";
import {
  isPatternName,
  MAX_LOCAL_PART,
  nameSpellings,
  PATTERN_NAMES,
  patternOf,
  rankPatterns,
  renderPattern,
} from "./email_patterns.ts";

Deno.test("spellings: diacritics, case, apostrophes and other characters are folded away", () => {
  const cases: [string, string, string, string][] = [
    ["José", "Ruiz", "jose", "ruiz"],
    ["ŁUCJA", "Wróbel", "lucja", "wrobel"],
    ["Søren", "Østby", "soren", "ostby"],
    ["Niamh", "O'Malley", "niamh", "omalley"],
    ["Niamh", "O’Malley", "niamh", "omalley"],
    ["Grete", "Straßer", "grete", "strasser"],
    ["Émile", "Lefèvre-Dubois", "emile", "lefevredubois"],
    ["Ana3", "Pérez (Jr)", "ana3", "perezjr"],
    // mojibake (UTF-8 read as Windows-1252) is spelled as the name it stands for
    ["AndrÃ©", "MÃ¼ller", "andre", "muller"],
    ["Thá»‹", "Nguyá»…n", "thi", "nguyen"],
  ];
  for (const [given, surname, first, last] of cases) {
    assert.deepEqual(nameSpellings({ given, surname })?.primary, { first, last, middle: "" });
  }
});

Deno.test("spellings: nothing usable left gives null, one usable part is kept", () => {
  assert.equal(nameSpellings({ given: "Сергей", surname: "Волков" }), null);
  assert.equal(nameSpellings({ given: "", surname: "" }), null);
  assert.equal(nameSpellings({ given: "'", surname: "--" }), null);
  assert.deepEqual(nameSpellings({ given: "Сергей", surname: "Volkov" })?.primary, {
    first: "",
    last: "volkov",
    middle: "",
  });
});

Deno.test("spellings: multi-word and hyphenated given names", () => {
  const jl = nameSpellings({ given: "Jean-Luc", surname: "Marchetti" })!;
  assert.equal(jl.primary.first, "jeanluc");
  assert.deepEqual(jl.variants.map((v) => [v.kind, v.parts.first]), [
    ["given-hyphenated", "jean-luc"],
    ["given-first-part", "jean"],
  ]);
  const jm = nameSpellings({ given: "José María", surname: "Ortega" })!;
  assert.deepEqual(jm.primary, { first: "jose", last: "ortega", middle: "m" });
  assert.deepEqual(jm.variants.map((v) => [v.kind, v.parts.first]), [[
    "given-joined",
    "josemaria",
  ]]);
});

Deno.test("spellings: particles and compound surnames", () => {
  const surnames = (surname: string) => {
    const s = nameSpellings({ given: "Kim", surname })!;
    return [s.primary.last, ...s.variants.map((v) => `${v.kind}:${v.parts.last}`)];
  };
  assert.deepEqual(surnames("van der Berg"), ["vanderberg", "surname-last-word:berg"]);
  assert.deepEqual(surnames("de la Cruz"), ["delacruz", "surname-last-word:cruz"]);
  assert.deepEqual(surnames("di Maio"), ["dimaio", "surname-last-word:maio"]);
  assert.deepEqual(surnames("García Márquez"), [
    "garciamarquez",
    "surname-first-unit:garcia",
    "surname-last-word:marquez",
  ]);
  assert.deepEqual(surnames("Smith-Jones"), [
    "smithjones",
    "surname-hyphenated:smith-jones",
    "surname-first-unit:smith",
    "surname-last-word:jones",
  ]);
  assert.deepEqual(surnames("de la Fuente Ibarra"), [
    "delafuenteibarra",
    "surname-first-unit:delafuente",
    "surname-last-word:ibarra",
  ]);
  // A surname made only of words that can be particles is a surname ("Le", "Du").
  assert.deepEqual(surnames("Le"), ["le"]);
  assert.deepEqual(surnames("Da Le"), ["dale", "surname-first-unit:da", "surname-last-word:le"]);
});

Deno.test("spellings: German umlauts also spelled out, in both parts at once", () => {
  const s = nameSpellings({ given: "Björn", surname: "Schäfer" })!;
  assert.deepEqual(s.primary, { first: "bjorn", last: "schafer", middle: "" });
  assert.deepEqual(s.variants, [{
    kind: "umlauts-spelled-out",
    parts: { first: "bjoern", last: "schaefer", middle: "" },
  }]);
  // Decomposed input (u + combining diaeresis) is the same name.
  const decomposed = nameSpellings({ given: "Bjo\u0308rn", surname: "Scha\u0308fer" })!;
  assert.deepEqual(decomposed, s);
  // No umlaut, no variant: ß folds to ss either way, é has no spelled-out form.
  assert.deepEqual(nameSpellings({ given: "Grete", surname: "Straßer" })!.variants, []);
});

Deno.test("patterns: each renders as documented", () => {
  const parts = { first: "jane", last: "doe", middle: "q" };
  const expected: Record<string, string> = {
    "first.last": "jane.doe",
    "first": "jane",
    "flast": "jdoe",
    "firstlast": "janedoe",
    "f.last": "j.doe",
    "first_last": "jane_doe",
    "last": "doe",
    "firstl": "janed",
    "first.l": "jane.d",
    "lastf": "doej",
    "last.first": "doe.jane",
    "first-last": "jane-doe",
    "lastfirst": "doejane",
    "fl": "jd",
    "first.m.last": "jane.q.doe",
    "fmlast": "jqdoe",
  };
  assert.deepEqual([...PATTERN_NAMES].sort(), Object.keys(expected).sort());
  for (const pattern of PATTERN_NAMES) {
    assert.equal(renderPattern(pattern, parts), expected[pattern], pattern);
  }
});

Deno.test("patterns: a missing part, or a local part over 64 characters, renders nothing", () => {
  assert.equal(renderPattern("first.m.last", { first: "jane", last: "doe", middle: "" }), null);
  assert.equal(renderPattern("first.last", { first: "", last: "doe", middle: "" }), null);
  assert.equal(renderPattern("last", { first: "", last: "doe", middle: "" }), "doe");
  assert.equal(renderPattern("first", { first: "j", last: "doe", middle: "" }), null);
  const long = "a".repeat(40);
  assert.equal(renderPattern("first.last", { first: long, last: long, middle: "" }), null);
  const fits = renderPattern("first.last", {
    first: "a".repeat(31),
    last: "b".repeat(32),
    middle: "",
  });
  assert.equal(fits?.length, MAX_LOCAL_PART);
});

Deno.test("patterns: names are recognised", () => {
  assert.ok(isPatternName("first.last"));
  assert.ok(isPatternName("fmlast"));
  assert.ok(!isPatternName("first.middle.last"));
  assert.ok(!isPatternName("toString"));
  assert.ok(!isPatternName(""));
});

Deno.test("patternOf: every pattern is read back from its local part", () => {
  const name = { given: "Hiroshi Kenji", surname: "Tanaka" };
  const locals: [string, string][] = [
    ["hiroshi.tanaka", "first.last"],
    ["hiroshi", "first"],
    ["htanaka", "flast"],
    ["hiroshitanaka", "firstlast"],
    ["h.tanaka", "f.last"],
    ["hiroshi_tanaka", "first_last"],
    ["tanaka", "last"],
    ["hiroshit", "firstl"],
    ["hiroshi.t", "first.l"],
    ["tanakah", "lastf"],
    ["tanaka.hiroshi", "last.first"],
    ["hiroshi-tanaka", "first-last"],
    ["tanakahiroshi", "lastfirst"],
    ["ht", "fl"],
    ["hiroshi.k.tanaka", "first.m.last"],
    ["hktanaka", "fmlast"],
  ];
  for (const [local, pattern] of locals) assert.equal(patternOf(local, name), pattern, local);
});

Deno.test("patternOf: case, a full address, a +tag and a namesake's number are tolerated", () => {
  const name = { given: "Łucja", surname: "Wróbel" };
  assert.equal(patternOf("Lucja.Wrobel", name), "first.last");
  assert.equal(patternOf("LWROBEL@Example.com", name), "flast");
  assert.equal(patternOf("lucja.wrobel+news@example.com", name), "first.last");
  assert.equal(patternOf("lucja.wrobel2", name), "first.last");
  assert.equal(patternOf("lwrobel.07@example.com", name), "flast");
  assert.equal(patternOf("sales@example.com", name), null);
  assert.equal(patternOf("wrobel.anna", name), null);
  assert.equal(patternOf("", name), null);
  assert.equal(patternOf("lucja", { given: "Сергей", surname: "" }), null);
});

Deno.test("patternOf: spelling variants count as their pattern", () => {
  const jl = { given: "Jean-Luc", surname: "van der Berg" };
  assert.equal(patternOf("jeanluc.vanderberg", jl), "first.last");
  assert.equal(patternOf("jean-luc.vanderberg", jl), "first.last");
  assert.equal(patternOf("jean.berg", jl), "first.last");
  assert.equal(patternOf("jberg", jl), "flast");
  assert.equal(patternOf("bergj", jl), "lastf");
  const jm = { given: "José María", surname: "García Márquez" };
  assert.equal(patternOf("jose.garcia", jm), "first.last");
  assert.equal(patternOf("josemaria.garcia", jm), "first.last");
  assert.equal(patternOf("j.marquez", jm), "f.last");
  assert.equal(patternOf("garcia.jose", jm), "last.first");
  assert.equal(patternOf("jmgarciamarquez", jm), "fmlast");
  const bs = { given: "Björn", surname: "Schäfer" };
  assert.equal(patternOf("bjoern.schaefer", bs), "first.last");
  assert.equal(patternOf("bschafer", bs), "flast");
  const sj = { given: "Priya", surname: "Smith-Jones" };
  assert.equal(patternOf("priya.smith-jones", sj), "first.last");
  assert.equal(patternOf("psmithjones", sj), "flast");
});

Deno.test("patternOf: when patterns coincide, the more common one is named", () => {
  // With a one-letter given name, flast and firstlast give the same local part.
  assert.equal(patternOf("jdoe", { given: "J.", surname: "Doe" }), "flast");
  // A given name of two letters: first and fl coincide.
  assert.equal(patternOf("ed", { given: "Ed", surname: "Dunmore" }), "first");
});

Deno.test("rankPatterns: most frequent first, ties in the default order, unknown left out", () => {
  const ranked = rankPatterns([
    { address: "ptanaka@acme.test", given: "Pia", surname: "Tanaka" },
    { address: "olu.adeyemi@acme.test", given: "Olu", surname: "Adeyemi" },
    { address: "mfontaine@acme.test", given: "Marc", surname: "Fontaine" },
    { address: "k.osei@acme.test", given: "Kofi", surname: "Osei" },
    { address: "info@acme.test", given: "Rhea", surname: "Lindqvist" },
    { address: "bschaefer@acme.test", given: "Björn", surname: "Schäfer" },
    { address: "vera@acme.test", given: "Вера", surname: "Соколова" },
  ]);
  assert.deepEqual(ranked, ["flast", "first.last", "f.last"]);
  assert.deepEqual(rankPatterns([]), []);
  // A tie keeps the default order whatever the order of the examples.
  assert.deepEqual(
    rankPatterns([
      { address: "n.achebe@x.test", given: "Nneka", surname: "Achebe" },
      { address: "tomas@x.test", given: "Tomás", surname: "Ferreira" },
    ]),
    ["first", "f.last"],
  );
});

Deno.test("spellings: a mojibake umlaut is spelled out like the umlaut", () => {
  const spellings = nameSpellings({ given: "Jörg", surname: "MÃ¼ller" });
  assert.ok(
    spellings?.variants.some((v) => v.kind === "umlauts-spelled-out" && v.parts.last === "mueller"),
  );
});

Deno.test("patternOf: a shared role mailbox follows no personal pattern", () => {
  assert.equal(patternOf("info@acme.test", { given: "Info", surname: "Smith" }), null);
  assert.equal(patternOf("jobs@acme.test", { given: "Steve", surname: "Jobs" }), null);
  assert.deepEqual(
    rankPatterns([{ address: "info@acme.test", given: "Info", surname: "Smith" }]),
    [],
  );
  assert.equal(
    patternOf("info.smith@acme.test", { given: "Info", surname: "Smith" }),
    "first.last",
  );
});
