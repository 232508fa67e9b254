/** The name model's door: the contract, the loader, and the pure pieces tests use. */
export type {
  NameModel,
  NameModelInput,
  NameOrder,
  NameReading,
  ReadingConstraint,
} from "./types.ts";
export { loadNameModel } from "./load_name_model.ts";
export type {
  LoadNameModelOptions,
  LoadNameModelResult,
  NameModelRuntime,
} from "./load_name_model.ts";
export { BOTH_ORDERS_CUT, decodeName, scoreReadings } from "./decode.ts";
export { Featurizer, isParticle, parseLexicon } from "./featurize.ts";
