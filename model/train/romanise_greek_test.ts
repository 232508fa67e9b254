import assert from "node:assert/strict";
import { romaniseGreek } from "./sources.ts";

Deno.test("romaniseGreek: ELOT 743 as Greek passports write names", () => {
  const cases: [string, string][] = [
    ["Παπαδοπούλου", "Papadopoulou"], // ου → ou
    ["Ευάγγελος", "Evangelos"], // ευ → ev before a voiced sound, γγ → ng
    ["Ευστάθιος", "Efstathios"], // ευ → ef before a voiceless consonant
    ["Αυγερινός", "Avgerinos"],
    ["Μπακογιάννης", "Bakogiannis"], // initial μπ → b
    ["Ντόρα", "Dora"], // initial ντ → d
    ["Χρήστος", "Christos"],
    ["Γεωργία", "Georgia"],
  ];
  for (const [greek, latin] of cases) assert.equal(romaniseGreek(greek), latin);
});
