/**
 * Erasure that reaches every copy of a person (docs/privacy.md): suppress them service-wide,
 * then delete or redact what the service holds about them.
 *
 * 1. Every identifier of the records the request reaches (all their addresses, profile URL,
 *    name at their company's domain) and the request's own go on the suppression list, so no
 *    lookup returns them and no import or write-back brings them back.
 * 2. Their directory records are deleted, with the fields enrich wrote back (and their sources)
 *    and their verified addresses (`person_emails`, by cascade).
 * 3. Lead-search results that delivered them and bulk-job rows that asked for or answered them
 *    are redacted: the row stays (it was counted and billed, and the ledger refers to its page),
 *    the person's fields are gone.
 * 4. Stored answers kept for Idempotency-Key replays that hold them are dropped and their replay
 *    window ended (a retry with that key is `idempotency_conflict`, as after 30 days), so a replay
 *    cannot hand them back.
 * 5. Cached answers in KV (network search, enrich) that hold them are deleted. Those are keyed by
 *    a fingerprint of the request, which no identifier alone can recompute, so the cache is read
 *    through and each entry holding an identifier is deleted. The verification cache keeps a
 *    verdict per address under a fingerprint of the address alone and without the address, so
 *    its entries for every address of theirs are deleted by key. (The engine's own per-domain
 *    facts, MX hosts and catch-all, hold no person.)
 *
 * Steps 1–4 are one transaction, with the audit entry (counts only). A bulk row or replay record
 * matches when its text holds one of the person's addresses or profile URLs, or their name
 * together with their company's domain: a name alone is no person.
 */
import type { AuditActor } from "../audit/audit_event.ts";
import { recordAuditEventIn } from "../audit/record_audit_event.ts";
import type { LookupSettings } from "../context.ts";
import { foldName } from "../directory/normalize.ts";
import { newId } from "../shared/new_id.ts";
import type { Fingerprinter } from "../idempotency/fingerprint.ts";
import { resultCacheKeyOf } from "../lookups/result_cache.ts";
import { checkAddress } from "../verify_email/address_checks.ts";
import { VERIFY_SCOPE, verifyCacheRequest } from "../verify_email/lookup_verification.ts";
import type { TransactionSql } from "../stores/database.ts";
import { heldPeopleIn } from "./held_people.ts";
import type { SuppressionContext } from "./is_suppressed.ts";
import type { PersonIdentifiers } from "./person_keys.ts";
import { type PersonTargetInput, readPersonTarget } from "./person_target.ts";

export type EraseContext = SuppressionContext & {
  /** Where the result cache lives; null: no cache to reach (a test without KV). */
  kv: Deno.Kv | null;
  settings: Pick<LookupSettings, "network">;
  /** The request fingerprints the result caches key on (the verification cache's, by address). */
  fingerprint: Fingerprinter;
};

export interface ErasureReport {
  erasureId: string;
  /** Identifiers newly put on the suppression list (already listed ones are not counted). */
  suppressed: number;
  removed: {
    directoryRecords: number;
    enrichedFields: number;
    verifiedAddresses: number;
    leadSearchResults: number;
    bulkResultRows: number;
    replayAnswers: number;
    cacheEntries: number;
  };
}

/** The terms a stored copy is matched by (lower case). */
interface Terms {
  /** Addresses and profile URLs (without scheme and `www.`). */
  exact: string[];
  /** A name (as written and folded) with its company's domain: both must appear. */
  names: { name: string; domain: string }[];
}

export async function erasePerson(
  ctx: EraseContext,
  input: PersonTargetInput & { actor?: AuditActor },
): Promise<ErasureReport> {
  const target = readPersonTarget(input, ctx.settings.network);
  const erasureId = newId("era");
  const { report, terms, emails } = await ctx.db.sql.begin(async (tx) => {
    const people = await heldPeopleIn({ tx }, target);
    const identifiers: Required<PersonIdentifiers> = { emails: [], profileUrls: [], names: [] };
    const emails = identifiers.emails as string[];
    const urls = identifiers.profileUrls as string[];
    const names: { name: string; domain: string }[] = [];
    const identifierNames = identifiers.names as {
      name: string;
      domain: string | null;
      company?: string;
    }[];
    if (target.kind === "email") emails.push(target.email);
    if (target.kind === "profile") urls.push(target.url);
    if (target.kind === "name") {
      names.push({ name: target.name, domain: target.domain });
      identifierNames.push({ name: target.name, domain: target.domain });
    }
    for (const p of people) {
      emails.push(...p.emails.map((e) => e.address), ...p.channels.emails);
      if (p.networkUrl) urls.push(p.networkUrl);
      if (p.company) {
        const { domain, name: company } = p.company;
        const spellings = [
          p.fullName,
          ...(p.given && p.surname ? [`${p.given} ${p.surname}`] : []),
        ];
        for (const name of spellings) {
          identifierNames.push({ name, domain, company });
          if (domain) names.push({ name, domain });
        }
      }
    }
    const keys = ctx.personKeys.of(identifiers);
    const suppressed = keys.length === 0 ? [] : await tx`
      INSERT INTO suppressions (fingerprint, kind)
      SELECT * FROM unnest(${keys.map((k) => k.fingerprint)}::text[],
                           ${keys.map((k) => k.kind)}::text[])
      ON CONFLICT (fingerprint) DO NOTHING
      RETURNING 1`;

    const ids = people.map((p) => p.id);
    const terms = termsOf(emails, urls, names);
    // The records go first: a lead-search page being delivered holds them FOR SHARE, so this
    // waits for it, and the redaction below (a later statement, a later snapshot) meets its rows.
    const deletedPeople = ids.length === 0 ? [] : await tx`
      DELETE FROM people WHERE id = ANY(${ids}::text[]) RETURNING 1`;
    const leadRows = await tx`
      UPDATE lead_search_results
         SET name = '', title = NULL, company = NULL, location = NULL, network_url = NULL
       WHERE (person_id = ANY(${ids}::text[]) OR network_url = ANY(${urls}::text[]))
         AND name <> ''
      RETURNING 1`;
    const bulkRows = await redactBulkRows(tx, terms);
    const replays = await dropReplayAnswers(tx, terms);
    const report: ErasureReport = {
      erasureId,
      suppressed: suppressed.length,
      removed: {
        directoryRecords: deletedPeople.length,
        enrichedFields: people.reduce((n, p) => n + Object.keys(p.fieldSources).length, 0),
        verifiedAddresses: people.reduce((n, p) => n + p.emails.length, 0),
        leadSearchResults: leadRows.length,
        bulkResultRows: bulkRows,
        replayAnswers: replays,
        cacheEntries: 0,
      },
    };
    return { report, terms, emails };
  });
  report.removed.cacheEntries = ctx.kv
    ? await deleteCachedAnswers(ctx.kv, terms) +
      await deleteCachedVerdicts(ctx.kv, ctx.fingerprint, emails)
    : 0;
  // The cache is reached after the commit (KV is no part of the transaction); its count joins
  // the audit entry, written last so it holds every count.
  await ctx.db.sql.begin((tx) =>
    recordAuditEventIn({ tx }, {
      action: "privacy.erased",
      actor: input.actor,
      workspaceId: null,
      subjectId: erasureId,
      details: { by: target.kind, suppressed: report.suppressed, ...report.removed },
    })
  );
  return report;
}

function termsOf(
  emails: readonly string[],
  urls: readonly string[],
  names: readonly { name: string; domain: string }[],
): Terms {
  const exact = new Set<string>();
  for (const e of emails) exact.add(e.toLowerCase());
  for (const u of urls) exact.add(u.toLowerCase().replace(/^https?:\/\/(www\.)?/, ""));
  const pairs = new Map<string, { name: string; domain: string }>();
  for (const { name, domain } of names) {
    for (const form of [name.toLowerCase().replace(/\s+/g, " ").trim(), foldName(name)]) {
      if (form) pairs.set(`${form}\u0000${domain}`, { name: form, domain: domain.toLowerCase() });
    }
  }
  return { exact: [...exact].filter(Boolean), names: [...pairs.values()] };
}

/** A LIKE pattern finding the term anywhere in a text (its wildcards escaped). */
const anywhere = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Redacts the bulk rows whose input or answer holds the person; returns how many. */
async function redactBulkRows(tx: TransactionSql, terms: Terms): Promise<number> {
  if (terms.exact.length === 0 && terms.names.length === 0) return 0;
  const rows = await tx`
    UPDATE bulk_job_rows
       SET input = jsonb_build_object('erased', true)
                   || CASE WHEN input ? 'mode' THEN jsonb_build_object('mode', input -> 'mode')
                           ELSE '{}'::jsonb END,
           answer = CASE WHEN answer IS NULL THEN NULL
                         ELSE jsonb_build_object('found', answer -> 'found', 'erased', true,
                                                 'reason', 'erased') END
     WHERE NOT (input ? 'erased') AND ${
    matches(tx, "lower(input::text || coalesce(answer::text, ''))", terms)
  }
    RETURNING 1`;
  return rows.length;
}

/** Drops the stored replay answers that hold the person and ends their replay window. */
async function dropReplayAnswers(tx: TransactionSql, terms: Terms): Promise<number> {
  if (terms.exact.length === 0 && terms.names.length === 0) return 0;
  const rows = await tx`
    UPDATE idempotency_records SET response = NULL, expires_at = least(expires_at, now())
     WHERE response IS NOT NULL AND ${matches(tx, "lower(response::text)", terms)}
    RETURNING 1`;
  return rows.length;
}

/** `text` holds an exact term, or a name together with its domain. */
function matches(tx: TransactionSql, text: string, terms: Terms) {
  const column = tx.unsafe(text);
  return tx`(
    ${column} LIKE ANY(${terms.exact.map(anywhere)}::text[])
    OR EXISTS (
      SELECT 1 FROM unnest(${terms.names.map((n) => anywhere(n.name))}::text[],
                           ${
    terms.names.map((n) => anywhere(n.domain))
  }::text[]) AS t (name, domain)
       WHERE ${column} LIKE t.name AND ${column} LIKE t.domain))`;
}

/** Deletes the result-cache entries (network search, enrich) that hold the person. */
async function deleteCachedAnswers(kv: Deno.Kv, terms: Terms): Promise<number> {
  let deleted = 0;
  for await (const entry of kv.list({ prefix: ["result_cache"] })) {
    const text = JSON.stringify(entry.value ?? null).toLowerCase();
    const folded = foldName(text);
    const hit = terms.exact.some((t) => text.includes(t)) ||
      terms.names.some((n) =>
        (text.includes(n.name) || folded.includes(n.name)) && text.includes(n.domain)
      );
    if (hit) {
      await kv.delete(entry.key);
      deleted++;
    }
  }
  return deleted;
}

/** Deletes the verification cache's verdicts on the addresses; returns how many there were. */
async function deleteCachedVerdicts(
  kv: Deno.Kv,
  fingerprint: Fingerprinter,
  emails: readonly string[],
): Promise<number> {
  const addresses = new Set<string>();
  for (const email of emails) {
    const { email: address, checks } = checkAddress(email);
    if (!checks.syntax) continue;
    addresses.add(address);
    // The mailbox without its `+tag` is suppressed too (person_keys.ts).
    const at = address.lastIndexOf("@");
    const plus = address.indexOf("+");
    if (plus > 0 && plus < at) addresses.add(`${address.slice(0, plus)}${address.slice(at)}`);
  }
  let deleted = 0;
  for (const address of addresses) {
    const key = resultCacheKeyOf(fingerprint, VERIFY_SCOPE, verifyCacheRequest(address));
    const entry = await kv.get(key);
    if (entry.value === null) continue;
    await kv.delete(key);
    deleted++;
  }
  return deleted;
}
