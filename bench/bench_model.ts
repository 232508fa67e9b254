/**
 * `deno task bench:model`: names per second for the name model (featurize + infer + decode),
 * one name per call and in batches of 100, the service's batch path (the domain's cleaning +
 * featurize + infer + decode, batches of 100), beside humanparser and parse-full-name run
 * in-process on the same names. The loader's runtime by default (the forward kernel); pass
 * `--runtime node` or `--runtime web` to measure onnxruntime-node or its WASM fallback, `--model PATH`
 * for other weights than the bundled ones.
 */
import { parseArgs } from "node:util";
import process from "node:process";
import humanparser from "humanparser";
import parseFullNameMod from "parse-full-name";
import { loadNameModel } from "../model/mod.ts";
import { GOLDEN } from "../model/golden_cases.ts";
import type { NameModel, NameModelInput } from "../model/types.ts";
import { cleanName } from "../domain/name_parse/mod.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    runtime: { type: "string" },
    model: { type: "string" },
    seconds: { type: "string", default: "3" },
    windows: { type: "string", default: "7" },
  },
});
const seconds = Number(values.seconds);
const windows = Math.max(1, Number(values.windows));

const loaded = await loadNameModel({
  runtime: values.runtime as "kernel" | "node" | "web" | undefined,
  path: values.model,
});
if (!loaded.model) {
  console.error(`model not loaded: ${loaded.reason}`);
  Deno.exit(1);
}
const model: NameModel = loaded.model;
// deno-lint-ignore no-explicit-any
const runtime = (model as any).runtime ?? "?";
const names = GOLDEN.map((c) => c.words.split(" "));
const strings = names.map((w) => w.join(" "));

/**
 * Names per second: the median of `windows` timed windows (the machine's speed varies), and the
 * same from this process's CPU time, which time spent waiting for a shared core does not inflate.
 */
async function measure(label: string, fn: (i: number) => Promise<number> | number) {
  // warm up
  for (let i = 0; i < 50; i++) await fn(i);
  const rates: number[] = [];
  const cpuRates: number[] = [];
  let i = 0;
  for (let w = 0; w < windows; w++) {
    let done = 0;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    while (performance.now() - t0 < (seconds * 1000) / windows) done += await fn(i++);
    const cpu = process.cpuUsage(cpu0);
    rates.push(done / ((performance.now() - t0) / 1000));
    cpuRates.push(done / ((cpu.user + cpu.system) / 1e6));
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const fmt = (x: number) => Math.round(x).toLocaleString("en-US");
  console.log(
    `${label.padEnd(48)} ${fmt(median(rates)).padStart(12)} names/s` +
      `  (windows ${fmt(rates[0])}–${fmt(rates[rates.length - 1])};` +
      ` per CPU second ${fmt(median(cpuRates))})`,
  );
}

console.log(
  `name model ${model.version} (${runtime}), ${names.length} distinct names, ${seconds}s each`,
);
await measure("model: single name per readMany", async (i) => {
  await model.readMany([{ words: names[i % names.length] }]);
  return 1;
});
const batches: { words: string[] }[][] = [];
for (let b = 0; b < 20; b++) {
  batches.push(
    Array.from({ length: 100 }, (_, j) => ({ words: names[(b * 100 + j * 7) % names.length] })),
  );
}
await measure("model: batches of 100 per readMany", async (i) => {
  await model.readMany(batches[i % batches.length]);
  return 100;
});
const stringBatches = batches.map((b) => b.map((x) => x.words.join(" ")));
await measure("clean + model: batches of 100 (service path)", async (i) => {
  const inputs: NameModelInput[] = [];
  for (const s of stringBatches[i % stringBatches.length]) {
    const c = cleanName(s);
    if (c.kind === "cleaned" && c.words.length >= 2) inputs.push({ words: c.words });
  }
  await model.readMany(inputs);
  return 100;
});
// deno-lint-ignore no-explicit-any
const hp: any = (humanparser as any).parseName ? humanparser : (humanparser as any).default;
await measure("humanparser.parseName (in-process)", (i) => {
  hp.parseName(strings[i % strings.length]);
  return 1;
});
// deno-lint-ignore no-explicit-any
const pfnAny: any = parseFullNameMod;
const pfn = pfnAny.parseFullName ?? pfnAny.default?.parseFullName;
await measure("parse-full-name.parseFullName (in-process)", (i) => {
  pfn(strings[i % strings.length]);
  return 1;
});
