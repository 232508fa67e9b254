/**
 * The whole training run: sources → lexicon (train split) → composed names → network →
 * held-out report → threshold → ONNX + config + lexicon files in `model/weights/`.
 */
import { BOTH_ORDERS_CUT, scoreReadings } from "../decode.ts";
import {
  type FeatureConfig,
  Featurizer,
  formatLexicon,
  isParticle,
  type LexiconData,
} from "../featurize.ts";
import { forwardTs, LABELS, type Weights } from "../forward.ts";
import { fold } from "../text.ts";
import { buildComposer, type Composer, type Example } from "./compose.ts";
import { dequantized, exportOnnx, quantizeRows } from "./export_onnx.ts";
import { fnv, Rng } from "./prng.ts";
import { loadSources } from "./sources.ts";
import { initWeights, type TrainConfig, Trainer } from "./trainer.ts";

export interface PipelineOptions {
  outDir: string;
  version: string;
  namesPerEpoch: number;
  epochs: number;
  heldOut: number;
  seed: number;
  features: FeatureConfig;
  train: TrainConfig;
  /** Which tenth of the names is held out (0 ships; others give k-fold figures). */
  heldOutFold?: number;
  /** Held-out names composed apart to fit the temperature (default: as many as `heldOut`). */
  calibrationNames?: number;
  log: (msg: string) => void;
}

function lexKey(w: string): string {
  const f = fold(w);
  return f.endsWith(".") ? f.slice(0, -1) : f;
}

/**
 * Builds the lexicon from the train split's names (and the held-out split's with `withHeldOut`);
 * `dropShare` of the words are left out (for training-time lexicon misses).
 */
export function buildLexicon(c: Composer, dropShare: number, withHeldOut = false): LexiconData {
  const tagIds = new Map<string, number>();
  const tags: string[] = [];
  const map = new Map<string, Set<number>>();
  const entries = withHeldOut
    ? [...c.lexiconEntries, ...c.heldOutLexiconEntries]
    : c.lexiconEntries;
  const neverHidden = new Set(c.neverHiddenTags);
  const alwaysKnown = new Set(
    entries.filter((e) => neverHidden.has(e.tag)).map((e) => lexKey(e.word)),
  );
  for (const { word, tag } of entries) {
    const key = lexKey(word);
    if (!key || isParticle(word)) continue;
    if (
      dropShare > 0 && !alwaysKnown.has(key) && (fnv(`lexdrop:${key}`) % 1000) / 1000 < dropShare
    ) continue;
    let id = tagIds.get(tag);
    if (id === undefined) {
      id = tags.length;
      tags.push(tag);
      tagIds.set(tag, id);
    }
    let s = map.get(key);
    if (!s) map.set(key, s = new Set());
    s.add(id);
  }
  const byWord = new Map<string, number[]>();
  for (const [k, s] of map) byWord.set(k, [...s].sort((a, b) => a - b));
  return { tags, entries: byWord, syllables: c.syllables };
}

export interface Reading {
  order: "given-first" | "surname-first";
  split: number;
}

export function goldReading(e: Example): Reading {
  const n = e.labels.length;
  const isG = (l: number) => l <= 1;
  if (isG(e.labels[0])) {
    let k = 0;
    while (k < n && isG(e.labels[k])) k++;
    return { order: "given-first", split: k };
  }
  let k = 0;
  while (k < n && !isG(e.labels[k])) k++;
  return { order: "surname-first", split: k };
}

export interface SliceStat {
  n: number;
  ok: number;
}

/** One band of the reliability table: names whose calibrated confidence is in [lo, hi). */
export interface ReliabilityRow {
  lo: number;
  hi: number;
  n: number;
  /** Mean calibrated confidence of the band. */
  confidence: number;
  /** Share of the band read right. */
  accuracy: number;
}

export interface HeldOutReport {
  accuracy: number;
  n: number;
  slices: Record<string, SliceStat>;
  /** Accuracy of "model when confidence ≥ t, else the rule" for each candidate t. */
  thresholds: { t: number; accuracy: number; ruleShare: number }[];
  /** Reliability table by calibrated confidence band. */
  calibration: ReliabilityRow[];
  /** Expected calibration error over the bands of `calibration` (weighted |accuracy − confidence|). */
  ece: number;
  /**
   * `bothOrders` checked against the gold order: names flagged (the other order holds at least
   * the cut of the mass) and how often the other order was the right one, flagged or not.
   */
  bothOrders: {
    flagged: number;
    flaggedOtherOrderRight: number;
    unflagged: number;
    unflaggedOtherOrderRight: number;
  };
}

/** Per held-out name: the valid readings' probabilities (temperature 1) and the gold reading. */
interface Scored {
  e: Example;
  /** Valid readings, highest first. */
  readings: { order: Reading["order"]; split: number; p: number }[];
  /** Index of the gold reading among `readings`, or -1 when it is not a valid reading. */
  gold: number;
}

function scoreAll(w: Weights, feat: Featurizer, examples: Example[]): Scored[] {
  const out: Scored[] = [];
  const CH = 2000;
  for (let i = 0; i < examples.length; i += CH) {
    const chunk = examples.slice(i, i + CH);
    const batch = feat.featurizeBatch(chunk.map((e) => e.words));
    const probs = forwardTs(w, batch.indices, batch.tokens, batch.width);
    chunk.forEach((e, j) => {
      const { readings } = scoreReadings(
        e.words,
        probs,
        batch.offsets[j],
        LABELS.length,
        feat.isEastAsianSyllable,
      );
      const g = goldReading(e);
      const gold = readings.findIndex((r) => r.order === g.order && r.split === g.split);
      out.push({ e, readings, gold });
    });
  }
  return out;
}

/** The readings' probabilities at temperature `t`: p^(1/t), normalised. */
function tempered(readings: { p: number }[], t: number): number[] {
  const ls = readings.map((r) => Math.log(Math.max(r.p, 1e-300)) / t);
  const m = Math.max(...ls);
  const ex = ls.map((l) => Math.exp(l - m));
  const z = ex.reduce((a, b) => a + b, 0);
  return ex.map((x) => x / z);
}

/**
 * The temperature that minimises the negative log-likelihood of the gold readings (names whose
 * gold reading is not a valid reading do not count): a grid over 0.25–8 on a log scale, refined.
 */
export function fitTemperature(scored: Scored[]): number {
  const nll = (t: number) => {
    let s = 0;
    for (const x of scored) {
      if (x.gold < 0 || x.readings.length < 2) continue;
      s -= Math.log(Math.max(tempered(x.readings, t)[x.gold], 1e-12));
    }
    return s;
  };
  let best = 1, bestV = nll(1);
  for (let k = -40; k <= 60; k++) {
    const t = Math.exp(k * 0.05);
    const v = nll(t);
    if (v < bestV) [best, bestV] = [t, v];
  }
  for (let k = -10; k <= 10; k++) {
    const t = best * Math.exp(k * 0.005);
    const v = nll(t);
    if (v < bestV) [best, bestV] = [t, v];
  }
  return Math.round(best * 1000) / 1000;
}

export const RELIABILITY_EDGES = [0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0000001];

export function evaluate(
  w: Weights,
  feat: Featurizer,
  examples: Example[],
  lexicon: LexiconData,
  temperature = 1,
): HeldOutReport {
  return report(scoreAll(w, feat, examples), lexicon, temperature);
}

export function report(scored: Scored[], lexicon: LexiconData, temperature: number): HeldOutReport {
  const slices: Record<string, SliceStat> = {};
  const bump = (k: string, ok: boolean) => {
    const s = slices[k] ??= { n: 0, ok: 0 };
    s.n++;
    if (ok) s.ok++;
  };
  const confs: { c: number; ok: boolean; ruleOk: boolean }[] = [];
  const both = { flagged: 0, flaggedOtherOrderRight: 0, unflagged: 0, unflaggedOtherOrderRight: 0 };
  for (const { e, readings, gold } of scored) {
    const p = tempered(readings, temperature);
    const top = readings[0];
    const g = goldReading(e);
    const ok = gold === 0;
    const ruleOk = g.order === "given-first" && g.split === 1;
    confs.push({ c: p[0], ok, ruleOk });
    let other = 0;
    readings.forEach((r, i) => {
      if (r.order !== top.order) other += p[i];
    });
    const otherRight = g.order !== top.order;
    if (other >= BOTH_ORDERS_CUT) {
      both.flagged++;
      if (otherRight) both.flaggedOtherOrderRight++;
    } else {
      both.unflagged++;
      if (otherRight) both.unflaggedOtherOrderRight++;
    }
    bump("all", ok);
    bump(`origin:${e.origin}`, ok);
    bump(`order:${e.order}`, ok);
    bump(`${e.origin}|${e.order}`, ok);
    for (const f of e.flags) bump(`flag:${f}`, ok);
    const open = e.words.filter((x) => !isParticle(x) && x.replace(/[^\p{L}]/gu, "").length > 1);
    const known = open.filter((x) => lexicon.entries.has(lexKey(x))).length;
    if (open.length > 0 && known === 0) bump("unseen:all-words", ok);
    else if (known < open.length) bump("unseen:some-words", ok);
    else bump("unseen:none", ok);
  }
  const thresholds = [];
  for (let t = 0; t <= 0.951; t += 0.05) {
    let ok = 0, rule = 0;
    for (const c of confs) {
      if (c.c >= t) ok += c.ok ? 1 : 0;
      else {
        rule++;
        ok += c.ruleOk ? 1 : 0;
      }
    }
    thresholds.push({
      t: Math.round(t * 100) / 100,
      accuracy: ok / confs.length,
      ruleShare: rule / confs.length,
    });
  }
  const calibration: ReliabilityRow[] = [];
  const edges = RELIABILITY_EDGES;
  let ece = 0;
  for (let i = 0; i < edges.length - 1; i++) {
    const sel = confs.filter((c) => c.c >= edges[i] && c.c < edges[i + 1]);
    const confidence = sel.length ? sel.reduce((a, c) => a + c.c, 0) / sel.length : 0;
    const accuracy = sel.length ? sel.filter((c) => c.ok).length / sel.length : 0;
    ece += (sel.length / confs.length) * Math.abs(accuracy - confidence);
    calibration.push({
      lo: edges[i],
      hi: Math.min(1, edges[i + 1]),
      n: sel.length,
      confidence,
      accuracy,
    });
  }
  const all = slices.all;
  return {
    accuracy: all.ok / all.n,
    n: all.n,
    slices,
    thresholds,
    calibration,
    ece,
    bothOrders: both,
  };
}

/**
 * The held-out names a training measures (and `scripts/compare_name_models.ts` reads with any
 * model): `n` names composed from the held-out split, in an order fixed by the training seed.
 */
export function heldOutNames(composer: Composer, seed: number, n: number): Example[] {
  const rng = new Rng(seed ^ 0xdead);
  const held: Example[] = [];
  for (let i = 0; i < n; i++) held.push(composer.compose(rng, "test"));
  return held;
}

export async function runPipeline(o: PipelineOptions): Promise<void> {
  const t0 = performance.now();
  const secs = () => ((performance.now() - t0) / 1000).toFixed(1) + "s";
  o.log(`[${secs()}] loading sources`);
  const src = await loadSources();
  const composer = buildComposer(src, o.heldOutFold ?? 0);
  // The held-out measurement reads names unseen in training: its lexicon is the train split's.
  // The shipped lexicon also holds the held-out split's names (the network is the same).
  const measureLex = buildLexicon(composer, 0);
  const trainLex = buildLexicon(composer, 0.2);
  const shipLex = buildLexicon(composer, 0, true);
  o.log(
    `[${secs()}] lexicon: ${measureLex.entries.size} words, ${measureLex.tags.length} tags; training lexicon ${trainLex.entries.size}; shipped with the held-out names ${shipLex.entries.size}`,
  );
  const trainFeat = new Featurizer(trainLex, o.features);
  const measureFeat = new Featurizer(measureLex, o.features);
  const held = heldOutNames(composer, o.seed, o.heldOut);
  // a second held-out set, composed apart, fits the calibration; `held` measures it
  const calRng = new Rng(o.seed ^ 0xca1b);
  const calib: Example[] = [];
  for (let i = 0; i < (o.calibrationNames ?? o.heldOut); i++) {
    calib.push(composer.compose(calRng, "test"));
  }

  const w = initWeights(o.features.buckets, o.train);
  const trainer = new Trainer(w, o.train);
  for (let ep = 0; ep < o.epochs; ep++) {
    const rng = new Rng(o.seed + 7919 * (ep + 1));
    let loss = 0, tokens = 0;
    const CH = 5000;
    for (let done = 0; done < o.namesPerEpoch; done += CH) {
      const exs: Example[] = [];
      for (let i = 0; i < CH && done + i < o.namesPerEpoch; i++) {
        exs.push(composer.compose(rng, "train"));
      }
      const batch = trainFeat.featurizeBatch(exs.map((e) => e.words));
      let t = 0;
      for (const e of exs) {
        for (const l of e.labels) {
          loss += trainer.step(batch.indices, t * batch.width, batch.width, l);
          t++;
          tokens++;
        }
      }
      if ((done / CH) % 20 === 19) {
        o.log(`[${secs()}] epoch ${ep + 1} names ${done + CH} loss ${(loss / tokens).toFixed(4)}`);
      }
    }
    trainer.lr *= 0.7;
    const rep = evaluate(w, measureFeat, held.slice(0, 5000), measureLex);
    o.log(
      `[${secs()}] epoch ${ep + 1} done: loss ${(loss / tokens).toFixed(4)} held-out(5k) ${
        rep.accuracy.toFixed(4)
      }`,
    );
  }
  // quantise, report on the shipped (dequantised) weights
  const qe = quantizeRows(w.emb, w.buckets + 1, w.dim);
  const shipW = dequantized(w, qe);
  const temperature = fitTemperature(scoreAll(shipW, measureFeat, calib));
  const heldScored = scoreAll(shipW, measureFeat, held);
  const raw = report(heldScored, measureLex, 1);
  const rep = report(heldScored, measureLex, temperature);
  o.log(`[${secs()}] held-out (${rep.n}) accuracy ${rep.accuracy.toFixed(4)}`);
  for (const [k, s] of Object.entries(rep.slices).sort()) {
    if (s.n >= 30) {
      o.log(`  ${k.padEnd(32)} ${String(s.n).padStart(6)}  ${(s.ok / s.n).toFixed(4)}`);
    }
  }
  o.log(
    `  temperature ${temperature} (fitted on ${calib.length} other held-out names): ECE ${
      raw.ece.toFixed(4)
    } → ${rep.ece.toFixed(4)}`,
  );
  for (const c of rep.calibration) {
    o.log(
      `  conf [${c.lo.toFixed(2)}, ${c.hi.toFixed(2)}) n=${c.n} mean=${
        c.confidence.toFixed(3)
      } acc=${c.accuracy.toFixed(3)}`,
    );
  }
  const b = rep.bothOrders;
  o.log(
    `  bothOrders: ${b.flagged} flagged, other order right in ${b.flaggedOtherOrderRight}; ` +
      `${b.unflagged} not flagged, other order right in ${b.unflaggedOtherOrderRight}`,
  );
  // threshold, on calibrated confidence: the largest t whose hybrid accuracy is within 0.1 point
  // of the best
  const best = Math.max(...rep.thresholds.map((x) => x.accuracy));
  const chosen = rep.thresholds.filter((x) => x.accuracy >= best - 0.001).pop()!;
  o.log(
    `  threshold ${chosen.t} (hybrid accuracy ${chosen.accuracy.toFixed(4)}, rule share ${
      chosen.ruleShare.toFixed(3)
    })`,
  );

  const onnxBytes = exportOnnx(w, qe, `name tagger ${o.version}`);
  await Deno.mkdir(o.outDir, { recursive: true });
  await Deno.writeFile(`${o.outDir}/name_model.onnx`, onnxBytes);
  await Deno.writeTextFile(`${o.outDir}/name_lexicon.txt`, formatLexicon(shipLex));
  const meta = {
    version: o.version,
    threshold: chosen.t,
    bothOrdersCut: 0.25,
    labels: LABELS,
    features: o.features,
    network: {
      dim: o.train.dim,
      hidden: o.train.hidden,
      labels: o.train.labels,
      embedding: "int8 per-row scale",
    },
    training: {
      seed: o.seed,
      epochs: o.epochs,
      namesPerEpoch: o.namesPerEpoch,
      lr: o.train.lr,
      featureDropout: o.train.featureDropout,
    },
    calibration: { method: "temperature", temperature, fittedOn: calib.length },
    heldOut: {
      fold: o.heldOutFold ?? 0,
      n: rep.n,
      accuracy: rep.accuracy,
      slices: Object.fromEntries(
        Object.entries(rep.slices).map(([k, s]) => [k, { n: s.n, accuracy: s.ok / s.n }]),
      ),
      thresholds: rep.thresholds,
      ece: rep.ece,
      eceUncalibrated: raw.ece,
      calibration: rep.calibration,
      calibrationUncalibrated: raw.calibration,
      bothOrders: rep.bothOrders,
    },
  };
  await Deno.writeTextFile(`${o.outDir}/name_model.json`, JSON.stringify(meta, null, 2) + "\n");
  o.log(
    `[${secs()}] wrote ${o.outDir}/name_model.onnx (${(onnxBytes.length / 1e6).toFixed(2)} MB)`,
  );
}
