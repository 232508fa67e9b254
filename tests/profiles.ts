/** Directory records that let lookups answer from the service's own records, with no provider. */
import { importPeople, parseImportRecord } from "../domain/directory/import_people.ts";
import type { TestEnv } from "./harness.ts";

/** Two people with profile URLs and verified addresses, in the directory. */
export async function importProfiles(env: Pick<TestEnv, "db" | "clock">): Promise<void> {
  const records = [["Ada", "Lovelace"], ["Charles", "Babbage"]].map(([given, surname]) => {
    const parsed = parseImportRecord({
      name: `${given} ${surname}`,
      given,
      surname,
      title: "Engineer",
      companyName: "Analytical Engines",
      companyDomain: "analytical.example",
      networkUrl: `https://network.example/in/${given}-${surname}`.toLowerCase(),
      emails: [{
        address: `${given}.${surname}@analytical.example`.toLowerCase(),
        status: "valid",
        verifiedAt: new Date(env.clock.now()).toISOString(),
      }],
    });
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.record;
  });
  await importPeople(env, records);
}
