import type { DbContext } from "../context.ts";
import { demoPeople } from "./demo_people.ts";
import {
  importPeople,
  type ImportPeopleResult,
  type ImportRecord,
  parseImportRecord,
} from "./import_people.ts";

/**
 * Loads the deterministic demo directory (`admin demo`, tests, benchmarks): `people` demo records,
 * validated like any import, upserted with source `demo`.
 */
export async function importDemoPeople(
  ctx: DbContext,
  input: { people: number; now: Date | number },
): Promise<{ records: ImportRecord[]; result: ImportPeopleResult }> {
  const records = demoPeople(input.people, { now: input.now }).map((raw) => {
    const parsed = parseImportRecord(raw);
    if (!parsed.ok) throw new Error(`demo record does not validate: ${parsed.message}`);
    return parsed.record;
  });
  return { records, result: await importPeople(ctx, records, { source: "demo" }) };
}
