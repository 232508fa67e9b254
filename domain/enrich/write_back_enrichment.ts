/**
 * After an enrichment that consulted every source, the directory's record of the address gets the
 * fields it lacks, each with the source that stated it and when (`recordEnrichedFields`). A
 * failure to write costs only that: the answer stands.
 */
import type { DomainContext } from "../context.ts";
import type { DirectoryPerson, FieldSource } from "../directory/directory_person.ts";
import { normalizeNetworkUrl } from "../directory/normalize.ts";
import {
  type EnrichedField,
  type EnrichedFieldsInput,
  recordEnrichedFields,
} from "../directory/record_enriched_fields.ts";
import type { EnrichAnswer } from "./enrich_answer.ts";

export async function writeBackEnrichment(
  ctx: DomainContext,
  input: { person: DirectoryPerson; answer: EnrichAnswer; enrichedAt: string },
): Promise<void> {
  const { person, answer, enrichedAt } = input;
  const sources: Partial<Record<EnrichedField, FieldSource>> = {};
  for (const entry of answer.sources) {
    if (entry.source === "directory") continue;
    for (const field of entry.fields) {
      const name = field.replace(/^person\./, "") as EnrichedField;
      sources[name] = { source: entry.source, url: entry.url, at: entry.retrievedAt };
    }
  }
  const stated = answer.person;
  const networkUrl = stated?.networkUrl
    ? normalizeNetworkUrl(stated.networkUrl, ctx.settings.network)
    : null;
  const fields: EnrichedFieldsInput = {
    personId: person.id,
    email: answer.email,
    fields: {
      given: stated?.given ?? undefined,
      surname: stated?.surname ?? undefined,
      title: stated?.title ?? undefined,
      companyName: stated?.companyName ?? undefined,
      location: stated?.location ?? undefined,
      headline: stated?.headline ?? undefined,
      networkUrl: networkUrl ?? undefined,
      "channels.x": answer.channels?.x ?? undefined,
      "channels.telegram": answer.channels?.telegram ?? undefined,
    },
    associatedEmails: answer.channels?.emails ?? [],
    sources,
    enrichedAt,
  };
  await recordEnrichedFields(ctx, fields).catch(() =>
    ctx.logger.warn("an enrichment could not be written to the directory")
  );
}
