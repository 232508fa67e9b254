/**
 * The directory's record of a person as enrich's statements: the record's own fields (imported,
 * learned, verified) as the `directory` source, and each field an earlier enrichment wrote back as
 * the source that stated it, with the time it was read then. Nothing of a record is read off the
 * address: a company known only by its domain is not stated.
 */
import type { DirectoryPerson, FieldSource } from "../directory/directory_person.ts";
import type { StatedFields } from "../providers/reverse_lookup/port.ts";
import type { Statement } from "./enrich_answer.ts";

/** `field_sources` names → the stated field each is. */
const STATED_AS: Record<string, keyof StatedFields> = {
  given: "given",
  surname: "surname",
  title: "title",
  companyName: "companyName",
  location: "location",
  headline: "headline",
  networkUrl: "networkUrl",
  "channels.x": "x",
  "channels.telegram": "telegram",
  "channels.emails": "associatedEmails",
};

/** Whether an earlier enrichment consulted every source recently enough to answer alone. */
export function enrichedRecently(
  person: DirectoryPerson,
  now: number,
  maxAgeDays: number,
): boolean {
  if (person.enrichedAt === null || maxAgeDays <= 0) return false;
  return now - Date.parse(person.enrichedAt) < maxAgeDays * 86_400_000;
}

/** The record's own fields: those no enrichment wrote. */
export function ownStatement(person: DirectoryPerson): Statement {
  const fields = recordFields(person);
  for (const [field, stated] of Object.entries(STATED_AS)) {
    if (field in person.fieldSources) delete fields[stated];
  }
  return { source: "directory", url: null, fields };
}

/** The whole record: its own fields, then those an enrichment wrote, under their sources. */
export function recordStatements(person: DirectoryPerson): Statement[] {
  const all = recordFields(person);
  const bySource = new Map<string, Statement>();
  for (const [field, origin] of Object.entries(person.fieldSources)) {
    const stated = STATED_AS[field];
    if (!stated || all[stated] === undefined) continue;
    const key = sourceKey(origin);
    const statement = bySource.get(key) ??
      { source: origin.source, url: origin.url, retrievedAt: origin.at, fields: {} };
    (statement.fields as Record<string, unknown>)[stated] = all[stated];
    bySource.set(key, statement);
  }
  return [ownStatement(person), ...bySource.values()];
}

function sourceKey(origin: FieldSource): string {
  return `${origin.source}\u0000${origin.at}`;
}

function recordFields(known: DirectoryPerson): StatedFields {
  return {
    name: known.fullName,
    given: known.given ?? undefined,
    surname: known.surname ?? undefined,
    title: known.title ?? undefined,
    // A company the directory knows only by its domain carries the domain as a stand-in name:
    // that would be read off the address, so it is not stated.
    companyName: known.company && known.company.name !== known.company.domain
      ? known.company.name
      : undefined,
    location: known.location ?? undefined,
    headline: known.headline ?? undefined,
    networkUrl: known.networkUrl ?? undefined,
    x: known.channels.x ?? undefined,
    telegram: known.channels.telegram ?? undefined,
    associatedEmails: known.channels.emails.length ? known.channels.emails : undefined,
  };
}
