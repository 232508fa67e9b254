/** Name cleaning, the rule reading and answer assembly: pure functions, no I/O. */
export { cleanName } from "./clean_name.ts";
export type { CleanedName, FixedReading, NameRefusal, RefusalReason } from "./cleaned_name.ts";
export { ruleReading } from "./rule_reading.ts";
export { assembleAnswer, type AssembledName } from "./assemble_answer.ts";
export { foldSpelling } from "./fold_spelling.ts";
export { isParticle, PARTICLE_PAIRS, PARTICLES } from "./particles.ts";
export { splitUnspacedName, type UnspacedSplit } from "./split_unspaced_name.ts";
