import assert from "node:assert/strict";
import { emailCandidates, MAX_CANDIDATES } from "./email_candidates.ts";
import { patternOf } from "./email_patterns.ts";

const locals = (list: { address: string }[]) => list.map((c) => c.address.split("@")[0]);

Deno.test("candidates: a plain name in the default order", () => {
  const list = emailCandidates({ given: "Hiroshi", surname: "Tanaka" }, "acme.test");
  assert.deepEqual(list.slice(0, 7), [
    { address: "hiroshi.tanaka@acme.test", pattern: "first.last" },
    { address: "hiroshi@acme.test", pattern: "first" },
    { address: "htanaka@acme.test", pattern: "flast" },
    { address: "hiroshitanaka@acme.test", pattern: "firstlast" },
    { address: "h.tanaka@acme.test", pattern: "f.last" },
    { address: "hiroshi_tanaka@acme.test", pattern: "first_last" },
    { address: "tanaka@acme.test", pattern: "last" },
  ]);
  assert.deepEqual(locals(list.slice(7)), [
    "hiroshit",
    "hiroshi.t",
    "tanakah",
    "tanaka.hiroshi",
    "hiroshi-tanaka",
    "tanakahiroshi",
    "ht",
  ]);
});

Deno.test("candidates: every candidate follows the pattern it names", () => {
  const names = [
    { given: "Hiroshi", surname: "Tanaka" },
    { given: "Jean-Luc", surname: "van der Berg" },
    { given: "José María", surname: "García Márquez" },
    { given: "Björn", surname: "Schäfer" },
    { given: "Priya", surname: "Smith-Jones" },
  ];
  for (const name of names) {
    for (const c of emailCandidates(name, "acme.test")) {
      assert.equal(patternOf(c.address, name), c.pattern, c.address);
    }
  }
});

Deno.test("candidates: folded local parts, only [a-z0-9] and the separators", () => {
  const list = emailCandidates({ given: "Łucja", surname: "O'Dúnlaing" }, "acme.test");
  assert.equal(list[0].address, "lucja.odunlaing@acme.test");
  for (const c of list) assert.match(c.address, /^[a-z0-9._-]+@acme\.test$/);
  assert.equal(
    emailCandidates({ given: "Søren", surname: "Østby" }, "acme.test")[2].address,
    "sostby@acme.test",
  );
});

Deno.test("candidates: particles joined first, the last main word late", () => {
  const list = locals(emailCandidates({ given: "Jean-Luc", surname: "van der Berg" }, "acme.test"));
  assert.deepEqual(list.slice(0, 7), [
    "jeanluc.vanderberg",
    "jeanluc",
    "jvanderberg",
    "jeanlucvanderberg",
    "j.vanderberg",
    "jeanluc_vanderberg",
    "vanderberg",
  ]);
  assert.deepEqual(list.slice(7, 11), [
    "jeanluc.berg",
    "jberg",
    "jean-luc.vanderberg",
    "jean.vanderberg",
  ]);
  const cruz = locals(emailCandidates({ given: "Ana", surname: "de la Cruz" }, "acme.test"));
  assert.equal(cruz[0], "ana.delacruz");
  assert.ok(cruz.indexOf("ana.cruz") > cruz.indexOf("delacruz"));
  const maio = locals(emailCandidates({ given: "Chiara", surname: "di Maio" }, "acme.test"));
  assert.equal(maio[0], "chiara.dimaio");
  assert.ok(maio.includes("cmaio"));
});

Deno.test("candidates: compound and hyphenated surnames", () => {
  const jm = locals(emailCandidates({ given: "José María", surname: "García Márquez" }, "a.test"));
  assert.equal(jm[0], "jose.garciamarquez");
  assert.deepEqual(jm.slice(7, 12), [
    "jose.garcia",
    "jgarcia",
    "jose.marquez",
    "jmarquez",
    "josemaria.garciamarquez",
  ]);
  assert.ok(!jm.some((l) => l.includes("maria") && !l.startsWith("josemaria")));
  const sj = locals(emailCandidates({ given: "Priya", surname: "Smith-Jones" }, "a.test"));
  assert.equal(sj[0], "priya.smithjones");
  assert.deepEqual(sj.slice(7, 13), [
    "priya.smith-jones",
    "psmith-jones",
    "priya.smith",
    "psmith",
    "priya.jones",
    "pjones",
  ]);
});

Deno.test("candidates: umlauts folded first, spelled out later", () => {
  const list = locals(emailCandidates({ given: "Björn", surname: "Schäfer" }, "acme.test"));
  assert.equal(list[0], "bjorn.schafer");
  assert.equal(list[2], "bschafer");
  assert.ok(list.indexOf("bjoern.schaefer") > list.indexOf("schafer"));
  assert.ok(list.includes("bschaefer"));
});

Deno.test("candidates: a middle name only as a late initial", () => {
  const list = locals(emailCandidates({ given: "Ada Quinn", surname: "Okafor" }, "acme.test"));
  assert.equal(list[0], "ada.okafor");
  assert.ok(list.includes("adaquinn.okafor"));
  assert.ok(list.includes("ada.q.okafor"));
  assert.ok(list.indexOf("ada.q.okafor") > list.indexOf("ao"));
  assert.ok(!list.some((l) => l.includes("quinn") && !l.startsWith("adaquinn")));
});

Deno.test("candidates: deduplicated, and never more than 16", () => {
  for (
    const name of [
      { given: "José María", surname: "García Márquez" },
      { given: "Jean-Luc Pierre", surname: "de la Fuente-Ibarra" },
      { given: "Björn Ulf", surname: "von Schäfer-Günther" },
    ]
  ) {
    const list = emailCandidates(name, "acme.test");
    assert.equal(list.length, MAX_CANDIDATES);
    assert.equal(new Set(list.map((c) => c.address)).size, list.length);
  }
  // A one-letter given name: flast and firstlast would repeat; the first one keeps the address.
  const j = emailCandidates({ given: "J.", surname: "Doe" }, "acme.test");
  assert.deepEqual(j.slice(0, 3), [
    { address: "j.doe@acme.test", pattern: "first.last" },
    { address: "jdoe@acme.test", pattern: "flast" },
    { address: "j_doe@acme.test", pattern: "first_last" },
  ]);
  assert.equal(new Set(j.map((c) => c.address)).size, j.length);
  assert.equal(
    emailCandidates({ given: "Hiroshi", surname: "Tanaka" }, "a.test", { limit: 3 }).length,
    3,
  );
  assert.equal(
    emailCandidates({ given: "Hiroshi", surname: "Tanaka" }, "a.test", { limit: 99 }).length,
    14,
  );
});

Deno.test("candidates: the domain's known patterns come first, with their variants", () => {
  const name = { given: "José María", surname: "García Márquez" };
  const list = emailCandidates(name, "acme.test", { preferred: ["flast", "last.first"] });
  assert.deepEqual(list.slice(0, 8).map((c) => [c.address.split("@")[0], c.pattern]), [
    ["jgarciamarquez", "flast"],
    ["garciamarquez.jose", "last.first"],
    ["jgarcia", "flast"],
    ["garcia.jose", "last.first"],
    ["jmarquez", "flast"],
    ["marquez.jose", "last.first"],
    ["garciamarquez.josemaria", "last.first"],
    ["jose.garciamarquez", "first.last"],
  ]);
  assert.equal(list.length, MAX_CANDIDATES);
  // Unknown pattern names (as read back from storage) are ignored, repeats count once.
  const odd = emailCandidates({ given: "Hiroshi", surname: "Tanaka" }, "acme.test", {
    preferred: ["nope" as never, "first", "first"],
  });
  assert.deepEqual(locals(odd.slice(0, 2)), ["hiroshi", "hiroshi.tanaka"]);
  // A preferred pattern the name cannot fill is skipped.
  const noMiddle = emailCandidates({ given: "Hiroshi", surname: "Tanaka" }, "acme.test", {
    preferred: ["first.m.last", "lastf"],
  });
  assert.equal(noMiddle[0].address, "tanakah@acme.test");
});

Deno.test("candidates: nothing usable gives an empty list", () => {
  assert.deepEqual(emailCandidates({ given: "Сергей", surname: "Волков" }, "acme.test"), []);
  assert.deepEqual(emailCandidates({ given: "", surname: "" }, "acme.test"), []);
  assert.deepEqual(emailCandidates({ given: "Hiroshi", surname: "Tanaka" }, ""), []);
  assert.deepEqual(emailCandidates({ given: "Hiroshi", surname: "Tanaka" }, "not a domain"), []);
  assert.deepEqual(emailCandidates({ given: "Hiroshi", surname: "Tanaka" }, "a@b.test"), []);
  assert.deepEqual(emailCandidates({ given: "Hiroshi", surname: "Tanaka" }, "127.0.0.1"), []);
});

Deno.test("candidates: one usable part gives the patterns it can fill", () => {
  assert.deepEqual(emailCandidates({ given: "Сергей", surname: "Volkov" }, "acme.test"), [
    { address: "volkov@acme.test", pattern: "last" },
  ]);
  assert.deepEqual(emailCandidates({ given: "Teodora", surname: "" }, "acme.test"), [
    { address: "teodora@acme.test", pattern: "first" },
  ]);
});

Deno.test("candidates: local parts stay within 64 characters", () => {
  const long = {
    given: "Maximiliana",
    surname: "Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaft",
  };
  const list = emailCandidates(long, "acme.test");
  assert.ok(list.length > 0);
  for (const c of list) assert.ok(c.address.split("@")[0].length <= 64, c.address);
  assert.ok(!list.some((c) => c.pattern === "first.last" && c.address.startsWith("maximiliana.")));
  assert.ok(list.some((c) => c.pattern === "flast"));
});

Deno.test("candidates: the domain is normalised", () => {
  const at = (domain: string) =>
    emailCandidates({ given: "Hiroshi", surname: "Tanaka" }, domain)[0].address;
  assert.equal(at("  ACME.Test. "), "hiroshi.tanaka@acme.test");
  assert.equal(at("@acme.test"), "hiroshi.tanaka@acme.test");
  assert.equal(at("bücher.test"), "hiroshi.tanaka@xn--bcher-kva.test");
});

Deno.test("candidates: a shared role mailbox is never one, whatever the name", () => {
  const info = locals(emailCandidates({ given: "Info", surname: "Smith" }, "acme.test"));
  assert.ok(!info.includes("info"), "info@ is nobody's personal address");
  assert.deepEqual(info.slice(0, 3), ["info.smith", "ismith", "infosmith"]);
  const jobs = locals(emailCandidates({ given: "Steve", surname: "Jobs" }, "acme.test"));
  assert.ok(!jobs.includes("jobs"));
  assert.ok(jobs.includes("steve.jobs") && jobs.includes("steve"));
  const sales = locals(emailCandidates({ given: "Ana", surname: "Sales" }, "acme.test"));
  assert.ok(!sales.includes("sales"));
});

Deno.test("candidates: written surname first, the last given word is the called name", () => {
  const an = { given: "Văn An", surname: "Nguyễn", surnameFirst: true };
  const list = locals(emailCandidates(an, "acme.test"));
  assert.ok(list.includes("an.nguyen"), list.join(" "));
  assert.ok(list.includes("anguyen"), list.join(" "));
  assert.ok(!list.includes("an"), "only the variant patterns: two probes more");
  assert.ok(list.indexOf("an.nguyen") < list.indexOf("anguyen"));
  assert.equal(list[0], "van.nguyen", "the reading's own order still comes first");
  for (const c of emailCandidates(an, "acme.test")) {
    assert.equal(patternOf(c.address, an), c.pattern);
  }
  // Not without the order, nor with one given word.
  const western = locals(emailCandidates({ given: "Mary Ann", surname: "Smith" }, "acme.test"));
  assert.ok(!western.includes("ann.smith"));
  const one = emailCandidates(
    { given: "Hiroshi", surname: "Tanaka", surnameFirst: true },
    "x.test",
  );
  assert.deepEqual(one, emailCandidates({ given: "Hiroshi", surname: "Tanaka" }, "x.test"));
});
