/**
 * Access (GDPR Art. 15): everything the service holds about a person, for answering their
 * request. Their directory records field by field with where each came from (`source`: the
 * import, or the source enrich read it from with its URL and when; addresses with the source
 * that verified them and when), whether the suppression list names them, and which lead-search
 * runs delivered them (run ids and when; the workspaces' own copies are theirs). Reads only.
 */
import type { LookupSettings } from "../context.ts";
import { heldPeople, type HeldPerson } from "./held_people.ts";
import { isSuppressed, type SuppressionContext } from "./is_suppressed.ts";
import { type PersonTargetInput, readPersonTarget } from "./person_target.ts";

export interface FieldValue {
  field: string;
  value: unknown;
  /** `directory`: imported or learned by a lookup; else the source enrich read it from. */
  source: string;
  url: string | null;
  at: string | null;
}

export interface PersonExport {
  suppressed: boolean;
  records: {
    id: string;
    fields: FieldValue[];
    emails: HeldPerson["emails"];
    createdAt: string;
    updatedAt: string;
    enrichedAt: string | null;
    leadSearchDeliveries: { runId: string; deliveredAt: string }[];
  }[];
}

export async function exportPerson(
  ctx: SuppressionContext & { settings: Pick<LookupSettings, "network"> },
  input: PersonTargetInput,
): Promise<PersonExport> {
  const target = readPersonTarget(input, ctx.settings.network);
  const people = await heldPeople(ctx, target);
  const suppressed = await isSuppressed(ctx, {
    emails: target.kind === "email" ? [target.email] : [],
    profileUrls: target.kind === "profile" ? [target.url] : [],
    names: target.kind === "name" ? [{ name: target.name, domain: target.domain }] : [],
  });
  const ids = people.map((p) => p.id);
  const deliveries = ids.length === 0 ? [] : await ctx.db.sql<
    { person_id: string; run_id: string; delivered_at: Date }[]
  >`
    SELECT person_id, run_id, delivered_at FROM lead_search_results
     WHERE person_id = ANY(${ids}::text[]) ORDER BY delivered_at`;
  return {
    suppressed,
    records: people.map((p) => ({
      id: p.id,
      fields: fieldsOf(p),
      emails: p.emails,
      createdAt: p.createdAt,
      updatedAt: p.updatedAt,
      enrichedAt: p.enrichedAt,
      leadSearchDeliveries: deliveries.filter((d) => d.person_id === p.id).map((d) => ({
        runId: d.run_id,
        deliveredAt: new Date(d.delivered_at).toISOString(),
      })),
    })),
  };
}

function fieldsOf(p: HeldPerson): FieldValue[] {
  const values: [string, unknown][] = [
    ["name", p.fullName],
    ["given", p.given],
    ["surname", p.surname],
    ["title", p.title],
    ["seniority", p.seniority],
    ["headline", p.headline],
    ["location", p.location],
    ["networkUrl", p.networkUrl],
    ["keywords", p.keywords.length ? p.keywords : null],
    ["companyName", p.company?.name ?? null],
    ["companyDomain", p.company?.domain ?? null],
    ["channels.x", p.channels.x],
    ["channels.telegram", p.channels.telegram],
    ["channels.emails", p.channels.emails.length ? p.channels.emails : null],
  ];
  return values.filter(([, value]) => value !== null && value !== undefined).map(
    ([field, value]) => {
      const stated = p.fieldSources[field];
      return {
        field,
        value,
        source: stated?.source ?? "directory",
        url: stated?.url ?? null,
        at: stated?.at ?? null,
      };
    },
  );
}
