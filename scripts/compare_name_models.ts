/**
 * `deno task compare:models MODEL.onnx…`: the same held-out names read by each model through its
 * own lexicon (the `name_lexicon.txt` beside it), overall and per origin and order. The names are
 * the ones `deno task train` measures (this tree's composer, `--fold`, `--seed`, `--names`), so two
 * models trained on different recipes or seeds are compared on one set; a model trained by this
 * tree has the held-out names in its shipped lexicon but never saw them in training.
 * Options: --fold K (default 0), --seed N (default 20261123), --names N (default 20000),
 * --min N (smallest slice shown, default 100).
 */
import { parseArgs } from "node:util";
import { loadNameModel } from "../model/mod.ts";
import { buildComposer } from "../model/train/compose.ts";
import { goldReading, heldOutNames } from "../model/train/pipeline.ts";
import { loadSources } from "../model/train/sources.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    fold: { type: "string", default: "0" },
    seed: { type: "string", default: "20261123" },
    names: { type: "string", default: "20000" },
    min: { type: "string", default: "100" },
  },
});
if (positionals.length === 0) {
  console.error("usage: deno task compare:models MODEL.onnx [MODEL.onnx…]");
  Deno.exit(2);
}

const composer = buildComposer(await loadSources(), Number(values.fold));
const held = heldOutNames(composer, Number(values.seed), Number(values.names));
const slices = new Map<string, number[]>(); // slice → indices of its names
const add = (key: string, i: number) => {
  const list = slices.get(key);
  if (list) list.push(i);
  else slices.set(key, [i]);
};
held.forEach((e, i) => {
  add("all", i);
  add(`${e.origin}|${e.order}`, i);
});

/** Per model, whether each held-out name was read right. */
const columns: boolean[][] = [];
for (const path of positionals) {
  const loaded = await loadNameModel({ path });
  if (!loaded.model) {
    console.error(`${path}: ${loaded.reason}`);
    Deno.exit(1);
  }
  const readings = await loaded.model.readMany(held.map((e) => ({ words: e.words })));
  const right = held.map((e, i) => {
    const gold = goldReading(e);
    return readings[i].order === gold.order && readings[i].split === gold.split;
  });
  columns.push(right);
}

console.log(`${held.length} held-out names (fold ${values.fold}, seed ${values.seed})`);
positionals.forEach((p, k) => console.log(`  [${k + 1}] ${p}`));
const header = [
  "slice".padEnd(26),
  "n".padStart(6),
  ...columns.map((_, k) => `[${k + 1}]`.padStart(8)),
];
console.log(header.join(" "));
const keys = [...slices.keys()].sort((
  a,
  b,
) => (a === "all" ? -1 : b === "all" ? 1 : a.localeCompare(b)));
for (const key of keys) {
  const idx = slices.get(key)!;
  if (idx.length < Number(values.min) && key !== "all") continue;
  const accs = columns.map((right) => (idx.filter((i) => right[i]).length / idx.length).toFixed(4));
  console.log(
    [key.padEnd(26), String(idx.length).padStart(6), ...accs.map((a) => a.padStart(8))].join(" "),
  );
}
