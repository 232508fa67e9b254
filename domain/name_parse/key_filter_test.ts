import assert from "node:assert/strict";
import { asciiKeyHash, KeyFilter } from "./key_filter.ts";
import { honorificKind, titleKey } from "./honorifics.ts";
import { postNominalKey, postNominalKind } from "./post_nominals.ts";
import { isParticle, PARTICLES } from "./particles.ts";

const fnv = (s: string) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
};

Deno.test("asciiKeyHash is the hash of the key the list would build", () => {
  assert.equal(asciiKeyHash("Ph.D.", "all"), fnv(postNominalKey("Ph.D.")));
  assert.equal(asciiKeyHash("Dr..", "trailing"), fnv(titleKey("Dr..")));
  assert.equal(asciiKeyHash("Lt.Gen.", "trailing"), fnv(titleKey("Lt.Gen.")));
  assert.equal(asciiKeyHash("VAN", "keep"), fnv("van"));
  assert.equal(asciiKeyHash("Müller", "keep"), -1);
});

Deno.test("a key filter never rules out a listed key, in any ASCII case or with its periods", () => {
  const f = new KeyFilter(["phd", "jr", "md"], "all");
  for (const w of ["PhD", "Ph.D.", "pH.d", "JR.", "M.D.", "md"]) assert.ok(f.mightHave(w), w);
  assert.ok(f.mightHave("Müller"), "a word beyond ASCII is never ruled out");
  for (const p of PARTICLES) {
    assert.ok(isParticle(p) && isParticle(p.toUpperCase()), p);
  }
  for (const w of ["Dr", "DR.", "Mrs", "Prof.", "Lt.Gen.", "Herr"]) {
    assert.notEqual(honorificKind(w), null, w);
  }
  for (const w of ["PhD", "Ph.D.", "CPA", "cpa", "Jr.", "III", "Trustee", "M.Sc.Ed."]) {
    assert.notEqual(postNominalKind(w), null, w);
  }
  for (const w of ["Smith", "Anna", "J.", "Jean-Luc", "O'Neil"]) {
    assert.equal(postNominalKind(w), null, w);
  }
});
