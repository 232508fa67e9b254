/**
 * `deno run -A --config deno.dev.json scripts/name_readings_digest.ts [--names 60000] [--out FILE]
 * [--compare FILE] [--runtime kernel|node|web]`:
 * a fixed list of composed names (seeded; never the dev set), written the ways inputs arrive
 * (titles, credentials, commas, nicknames, case), read through the service path (`readNames`) in
 * batches of 100. Prints a digest of every answer (given, surname, source, bothOrders, confidence
 * to 6 decimals), so that a speed change can show it changes no reading; `--out` keeps the
 * answers in a file (synthetic names only), `--compare` lists the answers that differ from one.
 */
import { parseArgs } from "node:util";
import { createHash } from "node:crypto";
import { loadNameModel } from "../model/mod.ts";
import { buildComposer } from "../model/train/compose.ts";
import { Rng } from "../model/train/prng.ts";
import { loadSources } from "../model/train/sources.ts";
import { readNames } from "../domain/name_parse/read_names.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    names: { type: "string", default: "60000" },
    model: { type: "string" },
    out: { type: "string" },
    compare: { type: "string" },
    runtime: { type: "string" },
  },
});

const composer = buildComposer(await loadSources());
const rng = new Rng(20261201);
const TITLES = ["Dr.", "Mr", "Ms.", "Prof.", "Mrs"];
const TAILS = ["Jr.", "PhD", ", MD", ", CPA", "III", ", Ph. D.", ", RN, BSN"];
const inputs: string[] = [];
for (let i = 0; i < Number(values.names); i++) {
  const e = composer.compose(rng, i % 2 === 0 ? "train" : "test");
  let text = e.words.join(" ");
  const r = rng.next();
  if (r < 0.08 && e.order === "given-first") {
    // "Surname, Given"
    let k = 0;
    while (k < e.labels.length && e.labels[k] <= 1) k++;
    text = `${e.words.slice(k).join(" ")}, ${e.words.slice(0, k).join(" ")}`;
  } else if (r < 0.14) text = `${rng.pick(TITLES)} ${text}`;
  else if (r < 0.2) text = `${text}${rng.pick(TAILS).startsWith(",") ? "" : " "}${rng.pick(TAILS)}`;
  else if (r < 0.22 && e.words.length >= 3) {
    const w = e.words.slice();
    w[1] = `"${w[1]}"`;
    text = w.join(" ");
  }
  inputs.push(text);
}

const loaded = await loadNameModel({
  ...(values.model ? { path: values.model } : {}),
  ...(values.runtime ? { runtime: values.runtime as "kernel" | "node" | "web" } : {}),
});
if (!loaded.model) throw new Error(`model not loaded: ${loaded.reason}`);
const lines: string[] = [];
for (let i = 0; i < inputs.length; i += 100) {
  const out = await readNames(loaded.model, inputs.slice(i, i + 100), "as-written");
  for (const o of out) {
    lines.push(
      o.kind === "refused" ? `refused ${o.refusal.code}` : [
        o.answer.given,
        o.answer.surname,
        o.answer.source,
        o.answer.bothOrders,
        o.answer.confidence?.toFixed(6),
      ].join("\t"),
    );
  }
}
const digest = createHash("sha256").update(lines.join("\n")).digest("hex");
// deno-lint-ignore no-explicit-any
const runtime = (loaded.model as any).runtime ?? "?";
console.log(
  `${inputs.length} names, model ${loaded.model.version} (${runtime}): readings digest ${digest}`,
);
if (values.out) await Deno.writeTextFile(values.out, lines.join("\n") + "\n");
if (values.compare) {
  const before = (await Deno.readTextFile(values.compare)).split("\n");
  let differ = 0, readingsDiffer = 0;
  lines.forEach((l, i) => {
    if (l === before[i]) return;
    differ++;
    const a = l.split("\t"), b = (before[i] ?? "").split("\t");
    if (a.slice(0, 4).join("\t") !== b.slice(0, 4).join("\t")) readingsDiffer++;
  });
  console.log(`differ from ${values.compare}: ${differ} answers, ${readingsDiffer} readings`);
}
