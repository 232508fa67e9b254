/**
 * Surname particles: lower-case words that open or join a surname ("van", "de la", "bin", "y"; the
 * Philippine "Dela", "Delos" and "Delas", written as one word: "Juan Dela Cruz").
 * The rule keeps them with the surname automatically (first word given, the rest surname); a
 * model decoder can use the same list to keep a particle from ending a given name.
 */
import { KeyFilter } from "./key_filter.ts";
const LIST = `van von vom zu zum zur der den des dem het ter ten te op 't de del della delle
  dei degli dello di da das dos do du d' dal dalla la le les lo los las l' y e i bin binti bint ibn
  ben bat bar al el ul ud abu abd abdel st st. ste ste. saint sainte san santa santo mac mc ap ab
  av af ó o' ua ni nic mhic verch ferch ait dela delos delas`;

export const PARTICLES: ReadonlySet<string> = new Set(LIST.split(/\s+/).filter((w) => w));

/** Two-word particles, as lower-case word pairs. */
export const PARTICLE_PAIRS: ReadonlySet<string> = new Set([
  "de la",
  "de las",
  "de los",
  "de lo",
  "van der",
  "van den",
  "van de",
  "van het",
  "von der",
  "von dem",
  "von und",
  "de l'",
  "da la",
  "de le",
  "della la",
]);

const MIGHT_BE_PARTICLE = new KeyFilter(PARTICLES, "keep");

/** True for a word that is a surname particle ("Van" counts: case is ignored). */
export function isParticle(word: string): boolean {
  return MIGHT_BE_PARTICLE.mightHave(word) && PARTICLES.has(word.toLowerCase());
}
