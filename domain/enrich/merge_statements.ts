/**
 * Merges what the sources stated into one person: for each field, the first source (in the order
 * consulted: directory, Gravatar, GitHub, the network cross-reference) that stated it wins, and
 * `sources` says which source gave which field and when it was read. Nothing is added that no
 * source stated.
 */
import type { EnrichedChannels, EnrichedPerson, EnrichSource, Statement } from "./enrich_answer.ts";

const PERSON_FIELDS = [
  "name",
  "given",
  "surname",
  "title",
  "companyName",
  "location",
  "headline",
  "networkUrl",
] as const;

export function mergeStatements(
  email: string,
  statements: Statement[],
  retrievedAt: string,
): { person: EnrichedPerson | null; channels: EnrichedChannels | null; sources: EnrichSource[] } {
  const person: EnrichedPerson = {
    name: null,
    given: null,
    surname: null,
    title: null,
    companyName: null,
    location: null,
    headline: null,
    networkUrl: null,
  };
  const channels: EnrichedChannels = { emails: [], x: null, telegram: null };
  const sources: EnrichSource[] = [];
  for (const { source, url, fields, retrievedAt: at } of statements) {
    const gave: string[] = [];
    for (const field of PERSON_FIELDS) {
      const value = fields[field]?.trim();
      if (value && person[field] === null) {
        person[field] = value;
        gave.push(`person.${field}`);
      }
    }
    for (const channel of ["x", "telegram"] as const) {
      const value = fields[channel]?.trim();
      if (value && channels[channel] === null) {
        channels[channel] = value;
        gave.push(`channels.${channel}`);
      }
    }
    const emails = (fields.associatedEmails ?? [])
      .map((e) => e.trim().toLowerCase())
      .filter((e) => e && e !== email && !channels.emails.includes(e));
    if (emails.length) {
      channels.emails.push(...emails);
      gave.push("channels.emails");
    }
    if (gave.length === 0) continue;
    const when = at ?? retrievedAt;
    // One entry per source and time: the directory's record and a profile it also holds are
    // one source.
    const same = sources.find((s) => s.source === source && s.retrievedAt === when);
    if (same) {
      same.fields.push(...gave);
      same.url ??= url;
    } else sources.push({ source, fields: gave, url, retrievedAt: when });
  }
  const anyPerson = PERSON_FIELDS.some((field) => person[field] !== null);
  const anyChannel = channels.emails.length > 0 || channels.x !== null ||
    channels.telegram !== null;
  return { person: anyPerson ? person : null, channels: anyChannel ? channels : null, sources };
}
