/**
 * `deno task eval:model`: measures exactly what the service answers on the dev set (never trained
 * on). Each input goes through the domain's `readNames` (validation, cleaning, the model's reading
 * of the non-nickname words, threshold → rule fallback, assembly) and is scored per tag like
 * shared/tools/score-names.mjs: given and surname compared case-insensitively after NFC, collapsing
 * spaces and removing double-quote characters; a refusal counts as "invalid".
 * Per tag it prints the best open parser's figure (`shared/data/anchors-dev.md`) beside ours when
 * the gold file is the dev set, and how many rows of the tag an anchor that runs here (humanparser,
 * parse-full-name) reads right where we do not (a count only: the names stay unprinted).
 * Options: --gold FILE, --show-errors N, --tag T, --model PATH, --runtime kernel|node|web, --no-model,
 * --anchors FILE (default: the dev set's anchors file).
 */
import { parseArgs } from "node:util";
import { loadNameModel } from "../model/mod.ts";
import type { NameModel } from "../model/types.ts";
import { readNames } from "../domain/name_parse/read_names.ts";
import { cleanName } from "../domain/name_parse/clean_name.ts";
import type { NameOutcome } from "../domain/name_parse/name_answer.ts";
import { type AnchorTable, bestAnchor, readAnchorTable, RUNNABLE_ANCHORS } from "./dev_anchors.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    gold: {
      type: "string",
      default: new URL("../../shared/data/names-dev.jsonl", import.meta.url).pathname,
    },
    "show-errors": { type: "string", default: "0" },
    tag: { type: "string" },
    model: { type: "string" },
    runtime: { type: "string" },
    "no-model": { type: "boolean", default: false },
    anchors: { type: "string" },
  },
});

interface Gold {
  input: string;
  given: string | null;
  surname: string | null;
  nickname: string | null;
  invalid: boolean;
  tags: string[];
  source?: string;
}

const norm = (s: string | null | undefined) =>
  (s ?? "").normalize("NFC").replace(/["“”„‟]/g, " ").replace(/\s+/g, " ").trim().toLowerCase();

const lines = (await Deno.readTextFile(values.gold!)).split("\n").filter((l) => l.trim());
let gold: Gold[] = lines.map((l) => JSON.parse(l));
if (values.tag) gold = gold.filter((g) => g.tags.includes(values.tag!));

let model: NameModel | null = null;
if (!values["no-model"]) {
  const loaded = await loadNameModel({
    path: values.model,
    runtime: values.runtime as "kernel" | "node" | "web" | undefined,
  });
  if (!loaded.model) {
    console.error(`model not loaded: ${loaded.reason}`);
    Deno.exit(1);
  }
  model = loaded.model;
}
console.log(
  `readNames (domain cleaning + ${
    model
      // deno-lint-ignore no-explicit-any
      ? `model ${model.version} (${(model as any).runtime}), threshold ${model.threshold}`
      : "rule only"
  })`,
);

const t0 = performance.now();
const outcomes: NameOutcome[] = [];
for (let i = 0; i < gold.length; i += 100) {
  outcomes.push(
    ...await readNames(model, gold.slice(i, i + 100).map((g) => g.input), "as-written"),
  );
}
const ms = performance.now() - t0;

const tags = new Map<string, { n: number; ok: number }>();
const bump = (k: string, ok: boolean) => {
  const e = tags.get(k) ?? { n: 0, ok: 0 };
  e.n++;
  if (ok) e.ok++;
  tags.set(k, e);
};
let ok = 0, validN = 0, validOk = 0, invalidN = 0, invalidCaught = 0, falseRefusals = 0;
let ruleUsed = 0;
const wrong: string[] = [];
gold.forEach((g, i) => {
  const o = outcomes[i];
  const refused = o.kind === "refused";
  const a = o.kind === "answer" ? o.answer : null;
  if (a && a.source === "rule") ruleUsed++;
  let correct: boolean;
  if (g.invalid) {
    invalidN++;
    correct = refused;
    if (refused) invalidCaught++;
  } else {
    validN++;
    if (refused) falseRefusals++;
    correct = !!a && isRight(g, a);
    if (correct) validOk++;
  }
  if (correct) ok++;
  for (const t of g.tags) bump(t, correct);
  if (!correct) {
    const pred = a
      ? `${a.given} | ${a.surname}) [${a.source} ${a.confidence?.toFixed(3) ?? "-"}${
        a.bothOrders ? " both" : ""
      }]`
      : `INVALID)`;
    wrong.push(
      `${JSON.stringify(g.input)} gold=(${
        g.invalid ? "INVALID" : `${g.given} | ${g.surname}`
      }) pred=(${pred} {${g.tags.join(",")}}`,
    );
  }
});
function isRight(g: Gold, a: { given: string | null; surname: string | null }): boolean {
  return norm(a.given) === norm(g.given) && norm(a.surname) === norm(g.surname);
}
const pct = (x: number, n: number) => (n ? (x / n).toFixed(3) : "  -  ");
console.log(`rows ${gold.length} in ${ms.toFixed(0)} ms; answered by the rule ${ruleUsed}`);
console.log(`overall accuracy                ${pct(ok, gold.length)}  (${ok}/${gold.length})`);
console.log(`valid rows: (given, surname)    ${pct(validOk, validN)}  (${validOk}/${validN})`);
console.log(
  `invalid rows refused (recall)   ${pct(invalidCaught, invalidN)}  (${invalidCaught}/${invalidN})`,
);
console.log(
  `valid rows wrongly refused      ${pct(falseRefusals, validN)}  (${falseRefusals}/${validN})`,
);
const devGold = new URL("../../shared/data/names-dev.jsonl", import.meta.url).pathname;
const anchorsPath = values.anchors ??
  (values.gold === devGold
    ? new URL("../../shared/data/anchors-dev.md", import.meta.url).pathname
    : null);
const anchors: AnchorTable | null = anchorsPath ? await readAnchorTable(anchorsPath) : null;
// the anchors that run here, per tag: the figure beside ours where anchors-dev.md has none (caps)
const runTags = new Map<string, Map<string, number>>();
const anchorOk = gold.map((g) =>
  Object.entries(RUNNABLE_ANCHORS).filter(([, read]) =>
    g.invalid ? false : isRight(g, read(g.input))
  ).map(([name]) => name)
);
if (anchors) {
  gold.forEach((g, i) => {
    for (const t of g.tags) {
      const m = runTags.get(t) ?? new Map<string, number>();
      for (const name of anchorOk[i]) m.set(name, (m.get(name) ?? 0) + 1);
      runTags.set(t, m);
    }
  });
}
function anchorFor(tag: string, n: number): { name: string; figure: number } | null {
  const listed = anchors ? bestAnchor(anchors, tag) : null;
  if (listed || !anchors) return listed;
  let best: { name: string; figure: number } | null = null;
  for (const [name, ok] of runTags.get(tag) ?? []) {
    if (!best || ok / n > best.figure) best = { name: `${name}*`, figure: ok / n };
  }
  return best;
}
console.log(
  `per tag (n, accuracy${anchors ? ", best anchor (anchors-dev.md), diff" : ""}):`,
);
for (const [k, e] of [...tags].sort((a, b) => b[1].n - a[1].n)) {
  const best = anchorFor(k, e.n);
  const beside = best
    ? `   ${best.figure.toFixed(3)} ${best.name.padEnd(6)} ${
      (e.ok / e.n - best.figure >= 0 ? "+" : "") + (e.ok / e.n - best.figure).toFixed(3)
    }${e.ok / e.n < best.figure ? "  BELOW" : ""}`
    : "";
  console.log(`  ${k.padEnd(24)} ${String(e.n).padStart(6)}  ${pct(e.ok, e.n)}${beside}`);
}
if (anchors) {
  // rows an anchor reads right where we do not, per tag (counts only)
  const anchorRight = new Map<string, Map<string, number>>();
  gold.forEach((g, i) => {
    const o = outcomes[i];
    if (g.invalid || (o.kind === "answer" && isRight(g, o.answer))) return;
    for (const name of anchorOk[i]) {
      for (const t of g.tags) {
        const m = anchorRight.get(t) ?? new Map<string, number>();
        m.set(name, (m.get(name) ?? 0) + 1);
        anchorRight.set(t, m);
      }
    }
  });
  console.log("  (* measured here: anchors-dev.md has no figure for the tag)");
  console.log(
    "rows an anchor reads right and we do not (humanparser, parse-full-name run here; " +
      "python-nameparser and the others only as figures):",
  );
  for (const [k] of [...tags].sort((a, b) => b[1].n - a[1].n)) {
    const m = anchorRight.get(k);
    if (m) console.log(`  ${k.padEnd(24)} ${[...m].map(([a, n]) => `${a} ${n}`).join(", ")}`);
  }
}
// calibration on the dev set (measuring only): valid rows whose reading the model chose (not fixed
// by a comma, a nickname or unspaced CJK), by its confidence
const EDGES = [0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0000001];
const scoredRows: { c: number; ok: boolean }[] = [];
gold.forEach((g, i) => {
  const o = outcomes[i];
  if (g.invalid || o.kind !== "answer" || o.answer.confidence === null) return;
  const c = cleanName(g.input);
  if (c.kind === "cleaned" && c.fixed) return;
  const a = o.answer;
  scoredRows.push({
    c: a.confidence!,
    ok: norm(a.given) === norm(g.given) && norm(a.surname) === norm(g.surname),
  });
});
if (scoredRows.length > 0) {
  let ece = 0;
  console.log("reliability (valid rows the model read; confidence band, n, mean, accuracy):");
  for (let b = 0; b < EDGES.length - 1; b++) {
    const sel = scoredRows.filter((r) => r.c >= EDGES[b] && r.c < EDGES[b + 1]);
    if (sel.length === 0) continue;
    const mean = sel.reduce((x, r) => x + r.c, 0) / sel.length;
    const acc = sel.filter((r) => r.ok).length / sel.length;
    ece += (sel.length / scoredRows.length) * Math.abs(acc - mean);
    console.log(
      `  [${EDGES[b].toFixed(2)}, ${Math.min(1, EDGES[b + 1]).toFixed(2)})  ${
        String(sel.length).padStart(5)
      }  ${mean.toFixed(3)}  ${acc.toFixed(3)}`,
    );
  }
  console.log(`  ECE ${ece.toFixed(4)} over ${scoredRows.length} rows`);
}
const show = Number(values["show-errors"]);
if (show > 0) {
  console.log(`\nfirst ${show} wrong rows:`);
  for (const w of wrong.slice(0, show)) console.log("  " + w);
}
console.log(`\naccuracy: ${pct(ok, gold.length)}`);
