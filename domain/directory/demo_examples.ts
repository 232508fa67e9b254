import type { ImportRecord } from "./import_record.ts";

/** Lookups a newcomer can try against the demo directory (find request bodies). */
export function demoExamples(records: ImportRecord[]) {
  const examples: { what: string; body: Record<string, string>; expect?: string }[] = [];
  const withEmail = records.find((r) => r.companyDomain && r.emails.length);
  if (withEmail) {
    const address = withEmail.emails[0].address;
    examples.push(
      {
        what: "POST /api/v1/find — a name at a company domain",
        body: { mode: "email", name: withEmail.name, company: withEmail.companyDomain! },
        expect: address,
      },
      {
        what: "POST /api/v1/find — a name at a company named as people write it",
        body: {
          mode: "company",
          name: withEmail.name,
          company: withEmail.companyAliases[0] ?? withEmail.companyName!,
        },
        expect: address,
      },
    );
  }
  const profiled = withEmail?.networkUrl ? withEmail : records.find((r) => r.networkUrl);
  if (profiled) {
    examples.push({
      what: "POST /api/v1/find — a profile URL",
      body: { mode: "network", networkUrl: profiled.networkUrl! },
      ...(profiled.emails[0] ? { expect: profiled.emails[0].address } : {}),
    });
  }
  return examples;
}
