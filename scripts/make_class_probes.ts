/**
 * Writes the five class probes of `model/probes/` (Cyrillic Western names, given names that are
 * also surnames before an unknown surname, ALL-CAPS pairs with an unknown word, office titles and
 * occupations, hyphenated and bracketed forms) from the lists of `class_probe_lists.ts` and the
 * training lists of Cyrillic names, seeded. The second and third probes keep only names the lexicon
 * given by `--lexicon` (default: the shipped one, as it was when the probes were made) knows or
 * lacks as their class asks. `deno run -A scripts/make_class_probes.ts`
 */
import { parseArgs } from "node:util";
import { fold } from "../model/text.ts";
import { Rng } from "../model/train/prng.ts";
import {
  CYRILLIC_WESTERN_GIVEN_FEMALE,
  CYRILLIC_WESTERN_GIVEN_MALE,
  CYRILLIC_WESTERN_SURNAMES,
} from "../model/train/cyrillic_western.ts";
import * as L from "./class_probe_lists.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    lexicon: {
      type: "string",
      default: new URL("../model/weights/name_lexicon.txt", import.meta.url).pathname,
    },
    out: { type: "string", default: new URL("../model/probes", import.meta.url).pathname },
  },
});

interface Row {
  input: string;
  given: string;
  surname: string;
  nickname: null;
  invalid: false;
  tags: string[];
}
const row = (input: string, given: string, surname: string, tags: string[]): Row => ({
  input,
  given,
  surname,
  nickname: null,
  invalid: false,
  tags,
});

const [head, ...entries] = (await Deno.readTextFile(values.lexicon!)).split("\n");
const tagNames: string[] = JSON.parse(head).tags;
const lexicon = new Map<string, string[]>();
for (const e of entries) {
  const [w, ids] = e.split("\t");
  if (w && ids) lexicon.set(w, ids.split(",").map((i) => tagNames[Number(i)]));
}
const roles = (w: string) => lexicon.get(fold(w)) ?? [];
const unknown = (w: string) => w.split("-").every((p) => roles(p).length === 0);

async function write(name: string, rows: Row[]) {
  const seen = new Set<string>();
  const unique = rows.filter((r) => !seen.has(r.input) && seen.add(r.input));
  await Deno.writeTextFile(
    `${values.out}/${name}`,
    unique.map((r) => JSON.stringify(r)).join("\n") + "\n",
  );
  console.log(`${name}: ${unique.length} rows`);
}

const rng = new Rng(20270101);
const caps = (s: string) => s.toUpperCase();
const stripMarks = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").normalize("NFC");

// 1. Western names in Cyrillic script, given-first; half of each list outside the training lists
{
  const inGiven = L.words(CYRILLIC_WESTERN_GIVEN_MALE + " " + CYRILLIC_WESTERN_GIVEN_FEMALE);
  const inSur = L.words(CYRILLIC_WESTERN_SURNAMES);
  const outGiven = L.words(L.CYRILLIC_GIVEN_OUTSIDE);
  const outSur = L.words(L.CYRILLIC_SURNAMES_OUTSIDE);
  const rows: Row[] = [];
  for (let i = 0; i < 240; i++) {
    const gOut = i % 2 === 1, sOut = i % 4 >= 2;
    const g = rng.pick(gOut ? outGiven : inGiven), s = rng.pick(sOut ? outSur : inSur);
    const tags = ["cyrillic-western", gOut || sOut ? "outside-lists" : "in-lists"];
    if (i % 10 === 9) rows.push(row(`${caps(g)} ${caps(s)}`, caps(g), caps(s), [...tags, "caps"]));
    else rows.push(row(`${g} ${s}`, g, s, tags));
  }
  await write("cyrillic-western.jsonl", rows);
}

// 2. Given names that are also surnames somewhere, before a surname the lexicon lacks
const unknownSurnames = L.words(L.UNKNOWN_SURNAMES).filter(unknown);
{
  const given = L.words(L.GIVEN_ALSO_SURNAME).filter((g) =>
    roles(g).some((t) => t.startsWith("s.")) && roles(g).some((t) => t.startsWith("g."))
  );
  const onlySurname = L.words(L.GIVEN_ALSO_SURNAME).filter((g) =>
    roles(g).length > 0 && roles(g).every((t) => t.startsWith("s."))
  );
  console.log(`given also surname: ${given.length}; known only as a surname: ${onlySurname}`);
  const rows: Row[] = [];
  for (let i = 0; i < 240; i++) {
    const g = rng.pick(i % 6 === 0 && onlySurname.length ? onlySurname : given);
    const s = rng.pick(unknownSurnames);
    rows.push(row(`${g} ${s}`, g, s, ["given-also-surname"]));
  }
  await write("given-also-surname.jsonl", rows);
}

// 3. ALL-CAPS two-word names with a word the lexicon lacks (half with accents dropped)
{
  const given = L.words(L.CAPS_GIVEN).filter((g) => roles(g).some((t) => t.startsWith("g.")));
  const rows: Row[] = [];
  const rareGiven = L.words(L.CAPS_RARE_GIVEN).filter(unknown);
  const sur = L.words(L.PLAIN_SURNAMES);
  console.log(`caps: ${given.length} known given names, ${rareGiven.length} unknown`);
  for (let i = 0; i < 240; i++) {
    const rare = i % 4 === 3;
    const g = rng.pick(rare ? rareGiven : given), s = rng.pick(rare ? sur : unknownSurnames);
    const [G, S] = i % 2 === 0 ? [caps(g), caps(s)] : [caps(stripMarks(g)), caps(stripMarks(s))];
    rows.push(row(`${G} ${S}`, G, S, [
      "caps-unknown",
      i % 2 === 0 ? "accents" : "no-accents",
      rare ? "unknown-given" : "unknown-surname",
    ]));
  }
  await write("caps-unknown.jsonl", rows);
}

// 4. Office titles before a name and occupations after it
{
  const given = L.words(L.PLAIN_GIVEN), sur = L.words(L.PLAIN_SURNAMES);
  const occupations = L.words(L.OCCUPATIONS_AFTER);
  const rows: Row[] = [];
  for (let i = 0; i < 240; i++) {
    const g = rng.pick(given), s = rng.pick(sur);
    if (i % 2 === 0) {
      const office = rng.pick(L.OFFICES_BEFORE);
      const form = i % 8;
      if (form === 6) rows.push(row(`${office} ${g} ${s}, MBA`, g, s, ["office-before"]));
      else if (form === 4) {
        rows.push(row(`${caps(office)} ${caps(g)} ${caps(s)}`, caps(g), caps(s), [
          "office-before",
          "caps",
        ]));
      } else rows.push(row(`${office} ${g} ${s}`, g, s, ["office-before"]));
    } else {
      const job = rng.pick(occupations);
      const form = i % 10;
      if (form === 1) rows.push(row(`Dr. ${g} ${s} ${job}`, g, s, ["occupation-after"]));
      else if (form === 3) rows.push(row(`${g} ${s} ${job} AIA`, g, s, ["occupation-after"]));
      else if (form === 5) rows.push(row(`${g} ${s}, ${job}`, g, s, ["occupation-after"]));
      else if (form === 7) {
        rows.push(row(`${g} ${rng.pick("ABCDEFGHJKLMNPRSTW".split(""))}. ${s} ${job}`, "", s, []));
        rows[rows.length - 1].given = rows[rows.length - 1].input.split(" ").slice(0, 2).join(" ");
        rows[rows.length - 1].tags = ["occupation-after", "initial"];
      } else rows.push(row(`${g} ${s} ${job}`, g, s, ["occupation-after"]));
    }
  }
  await write("offices-occupations.jsonl", rows);
}

// 5. Hyphenated and bracketed forms
{
  const hg = L.words(L.HYPHEN_GIVEN), hs = L.words(L.HYPHEN_SURNAMES);
  const given = L.words(L.PLAIN_GIVEN), sur = L.words(L.PLAIN_SURNAMES);
  const rows: Row[] = [];
  for (let i = 0; i < 260; i++) {
    const form = i % 13;
    const g = rng.pick(hg), s = rng.pick(hs), pg = rng.pick(given), ps = rng.pick(sur);
    const [full, nick] = rng.pick(L.NICKNAMES);
    const H = ["hyphen"], B = ["bracket"];
    if (form === 0) rows.push(row(`${g} ${ps}`, g, ps, H));
    else if (form === 1) rows.push(row(`${pg} ${s}`, pg, s, H));
    else if (form === 2) rows.push(row(`${g} ${s}`, g, s, H));
    else if (form === 3) rows.push(row(`${caps(g)} ${caps(s)}`, caps(g), caps(s), [...H, "caps"]));
    else if (form === 4) rows.push(row(`${s}, ${g}`, g, s, [...H, "comma"]));
    else if (form === 5) rows.push(row(`${pg} M. ${s}`, `${pg} M.`, s, [...H, "initial"]));
    else if (form === 6) rows.push(row(`${g.toLowerCase()} ${ps.toLowerCase()}`, g, ps, H));
    else if (form === 7) rows.push(row(`${full} (${nick}) ${ps}`, full, ps, B));
    else if (form === 8) rows.push(row(`${ps}, ${full} (${nick})`, full, ps, [...B, "comma"]));
    else if (form === 9) {
      // a quoted nickname stays in the given name, as the dev set's labels keep it
      rows.push(row(`${full} "${nick}" ${s}`, `${full} "${nick}"`, s, [...B, "hyphen"]));
    } else if (form === 10) rows.push(row(`${full} (${nick}) J. ${ps}`, `${full} J.`, ps, B));
    else if (form === 11) rows.push(row(`${g} (${nick}) ${ps}`, g, ps, [...B, "hyphen"]));
    else rows.push(row(`${full} ${ps} (${nick})`, full, ps, B));
  }
  await write("hyphen-bracket.jsonl", rows);
}
