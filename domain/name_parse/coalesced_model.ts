import type { NameModel, NameModelInput, NameReading } from "../../model/types.ts";
import { coalesce } from "../shared/coalesce.ts";

/**
 * The same model, with concurrent `readMany` calls merged into one inference run: single-name
 * requests arriving together pay the runtime's per-call cost once.
 */
export function coalescedModel(model: NameModel): NameModel {
  const readMany = coalesce<NameModelInput, NameReading>((inputs) => model.readMany(inputs), {
    maxInFlight: 1,
    maxBatchItems: 512,
  });
  return { version: model.version, threshold: model.threshold, readMany };
}
