/**
 * Measures cleaning and the rule on the shared dev set (for measuring only: no dev-set name is
 * copied into the repository). Skipped when the file is absent.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { assembleAnswer } from "./assemble_answer.ts";
import { cleanName } from "./clean_name.ts";
import { ruleReading } from "./rule_reading.ts";

const DEV = fileURLToPath(new URL("../../../shared/data/names-dev.jsonl", import.meta.url));
const CLEANING_TAGS = [
  "honorific",
  "credential",
  "suffix",
  "pronoun",
  "bracket",
  "nickname",
  "comma",
];

interface DevRow {
  input: string;
  given: string | null;
  surname: string | null;
  nickname: string | null;
  invalid: boolean;
  tags: string[];
}

const QUOTES = /["“”„‟«»]/g;
const SPACES = /\s+/g;
function norm(s: string): string {
  return s.replace(QUOTES, "").replace(SPACES, " ").trim().toLowerCase();
}

Deno.test({
  name: "dev set: cleaning keeps exactly the gold name words; refusals; rule baseline",
  ignore: !existsSync(DEV),
  fn() {
    const rows: DevRow[] = readFileSync(DEV, "utf8").split("\n").filter((l) => l.trim())
      .map((l) => JSON.parse(l));
    let invalid = 0, invalidRefused = 0, valid = 0, validRefused = 0;
    let cleaningChecked = 0, cleaningPassed = 0;
    const cleaningFailures: string[] = [];
    const falseRefusals: string[] = [];
    const missedInvalid: string[] = [];
    const perTag = new Map<string, { n: number; ok: number }>();
    const bump = (tag: string, ok: boolean) => {
      const t = perTag.get(tag) ?? { n: 0, ok: 0 };
      t.n++;
      if (ok) t.ok++;
      perTag.set(tag, t);
    };

    for (const row of rows) {
      const cleaned = cleanName(row.input);
      if (row.invalid) {
        invalid++;
        if (cleaned.kind === "refused") invalidRefused++;
        else missedInvalid.push(row.input);
        continue;
      }
      valid++;
      if (cleaned.kind === "refused") {
        validRefused++;
        falseRefusals.push(`${row.input} (${cleaned.reason})`);
      }
      const gold = `${row.given} ${row.surname}`;
      if (row.tags.some((t) => CLEANING_TAGS.includes(t))) {
        cleaningChecked++;
        const surnameFirst = row.tags.includes("surname-first") && !row.tags.includes("comma");
        const expected = surnameFirst ? `${row.surname} ${row.given}` : gold;
        const got = cleaned.kind === "cleaned" ? cleaned.words.join(" ") : `<${cleaned.reason}>`;
        if (got === expected) cleaningPassed++;
        else cleaningFailures.push(`${row.input} => ${got} | expected ${expected}`);
      }
      let ok = false;
      if (cleaned.kind === "cleaned") {
        const a = assembleAnswer(cleaned, ruleReading(cleaned), "as-written");
        ok = norm(a.given) === norm(row.given ?? "") && norm(a.surname) === norm(row.surname ?? "");
      }
      bump("ALL valid", ok);
      for (const tag of row.tags) bump(tag, ok);
    }

    console.log(`cleaning: ${cleaningPassed}/${cleaningChecked} rows keep exactly the gold words`);
    for (const f of cleaningFailures) console.log(`  cleaning mismatch: ${f}`);
    console.log(
      `invalid recall: ${invalidRefused}/${invalid} = ${(invalidRefused / invalid).toFixed(3)}`,
    );
    for (const m of missedInvalid) console.log(`  not refused (gold invalid): ${m}`);
    console.log(
      `false refusals: ${validRefused}/${valid} = ${(validRefused / valid * 100).toFixed(2)}%`,
    );
    for (const f of falseRefusals) console.log(`  refused (gold valid): ${f}`);
    console.log("rule accuracy per tag (valid rows):");
    for (const [tag, { n, ok }] of [...perTag].sort((a, b) => b[1].n - a[1].n)) {
      console.log(`  ${tag.padEnd(18)} ${String(n).padStart(5)}  ${(ok / n).toFixed(3)}`);
    }

    assert.equal(cleaningPassed, cleaningChecked, "every cleaning row keeps the gold words");
    assert.ok(invalidRefused / invalid >= 0.9, "invalid recall >= 0.90");
    assert.ok(validRefused / valid <= 0.01, "false refusals <= 1%");
  },
});
