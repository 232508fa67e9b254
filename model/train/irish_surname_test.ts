import assert from "node:assert/strict";
import { irishSurname } from "./lists.ts";

Deno.test("irishSurname: the woman's form takes its initial mutation", () => {
  const cases: [Parameters<typeof irishSurname>[0], string, string][] = [
    ["Ó", "Ceallaigh", "Ceallaigh"],
    ["Ó", "Aodha", "hAodha"], // Ó before a vowel takes h-
    ["Ní", "Ceallaigh", "Cheallaigh"], // Ní lenites
    ["Ní", "Súilleabháin", "Shúilleabháin"],
    ["Ní", "Briain", "Bhriain"],
    ["Ní", "Néill", "Néill"], // n, l, r and vowels are not lenited
    ["Ní", "Aodha", "Aodha"],
    ["Mac", "Domhnaill", "Domhnaill"],
    ["Nic", "Domhnaill", "Dhomhnaill"], // Nic lenites, but not c or g
    ["Nic", "Cárthaigh", "Cárthaigh"],
    ["Nic", "Giolla Phádraig", "Giolla Phádraig"],
    ["Nic", "Fhlannchaidh", "Fhlannchaidh"], // already lenited
  ];
  for (const [particle, stem, written] of cases) {
    assert.equal(irishSurname(particle, stem), written, `${particle} ${stem}`);
  }
});
