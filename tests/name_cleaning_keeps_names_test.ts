/**
 * Cleaning drops titles, credentials and suffixes; it must not drop a name. Every word our bundled
 * lexicon knows as a given name or a surname (112k words) is kept by cleaning where names stand:
 * a given name before and after a surname ("Jun Wang", "Wang Jun"), a surname after a given name
 * and before a comma ("Anna Cen", "Cen, Anna"). Titles at the front are the one exception
 * (honorifics such as "Dame" or "Shri" are also given names in some lists).
 */
import assert from "node:assert/strict";
import { cleanName } from "../domain/name_parse/clean_name.ts";
import { honorificKind } from "../domain/name_parse/honorifics.ts";
import { isInitial } from "../domain/name_parse/post_nominals.ts";
import { parseLexicon } from "../model/featurize.ts";

const lexicon = parseLexicon(
  await Deno.readTextFile(new URL("../model/weights/name_lexicon.txt", import.meta.url)),
);

function dropped(input: string, word: string): string | null {
  const r = cleanName(input);
  const kept = r.kind === "cleaned" && r.words.includes(word);
  return kept ? null : `${input} → ${r.kind === "cleaned" ? r.words.join(" ") : r.reason}`;
}

Deno.test("cleaning keeps every given name and surname of the lexicon where names stand", () => {
  const misses: string[] = [];
  let checked = 0;
  for (const [word, ids] of lexicon.entries) {
    if (!/^\p{Ll}+$/u.test(word)) continue;
    const name = word[0].toUpperCase() + word.slice(1);
    if (isInitial(name) || honorificKind(name) !== null) continue;
    const tags = ids.map((i) => lexicon.tags[i]);
    const inputs: string[] = [];
    if (tags.some((t) => t.startsWith("g."))) inputs.push(`${name} Wang`, `Wang ${name}`);
    if (tags.some((t) => t.startsWith("s."))) inputs.push(`Anna ${name}`, `${name}, Anna`);
    for (const input of inputs) {
      checked++;
      const miss = dropped(input, name);
      if (miss) misses.push(miss);
    }
  }
  assert.ok(checked > 100_000, `only ${checked} inputs`);
  assert.deepEqual(misses, []);
});
