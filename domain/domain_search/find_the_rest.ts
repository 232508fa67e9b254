/**
 * "Find the rest" of a domain search: a bulk find job (the existing bulk verb, its reservation,
 * its per-page settlement) for the people the search finds at the domain who have no address
 * verified within VERIFIED_EMAIL_MAX_AGE_DAYS, by name at the domain (find's `email` mode), at
 * most a job's worth (`MAX_JOB_ROWS`). The same people a domain search shows: a listed domain is
 * refused and `hiddenPeople` are left out.
 */
import type { DomainContext } from "../context.ts";
import { createBulkJob, type CreateBulkJobAnswer } from "../bulk/create_bulk_job.ts";
import { MAX_JOB_ROWS, type ValidRow } from "../bulk/bulk_job.ts";
import { isDoNotContact } from "../do_not_contact/is_do_not_contact.ts";
import { titleWords } from "../lead_search/lead_search_run.ts";
import type { Department, Seniority } from "../directory/person_vocabulary.ts";
import type { DomainSearchReason } from "./domain_search_answer.ts";
import { hiddenPeople } from "./hidden_people.ts";
import { readPeopleWithoutEmail } from "./read_domain_people.ts";
import { resolveSearchDomain, type SearchTarget } from "./resolve_search_domain.ts";

export type FindTheRestResult =
  | { kind: "started"; answer: CreateBulkJobAnswer; people: number }
  /** Nobody left to find (everyone has a verified address), or the search was refused. */
  | { kind: "nothing"; reason: DomainSearchReason | null };

export async function findTheRest(
  ctx: DomainContext,
  input: {
    workspaceId: string;
    idempotencyKey: string;
    target: SearchTarget;
    department?: Department[];
    seniority?: Seniority[];
    title?: string;
  },
): Promise<FindTheRestResult> {
  const resolved = await resolveSearchDomain(ctx, input.target);
  if (resolved.kind === "refused") return { kind: "nothing", reason: resolved.reason };
  const { domain } = resolved.organization;
  if (await isDoNotContact(ctx, { workspaceId: input.workspaceId, domain })) {
    return { kind: "nothing", reason: "do-not-contact" };
  }
  const companyId = resolved.companyId;
  if (companyId === null) return { kind: "nothing", reason: "not-found" };
  const hidden = await hiddenPeople(ctx, { workspaceId: input.workspaceId, companyId });
  const names = await readPeopleWithoutEmail(ctx, {
    companyId,
    domain,
    filters: {
      department: input.department,
      seniority: input.seniority,
      title: input.title ? titleWords(input.title) : undefined,
    },
    hidden,
    verifiedSince: new Date(
      ctx.clock.now() - ctx.settings.verifiedEmailMaxAgeDays * 86_400_000,
    ),
    limit: MAX_JOB_ROWS,
  });
  if (names.length === 0) return { kind: "nothing", reason: null };
  // One row per distinct name (namesakes at one company are one lookup, as in a bulk list).
  const rows = new Map<string, ValidRow>();
  names.forEach((name, i) => {
    const existing = rows.get(name);
    if (existing) existing.lines.push(i + 1);
    else {
      rows.set(name, {
        lines: [i + 1],
        input: { mode: "email", name, domain },
        groupKey: `domain:${domain}`,
      });
    }
  });
  const answer = await createBulkJob(ctx, {
    workspaceId: input.workspaceId,
    idempotencyKey: input.idempotencyKey,
    operation: "find",
    rows: [...rows.values()],
    invalid: [],
    duplicates: names.length - rows.size,
    dryRun: false,
  });
  return { kind: "started", answer, people: names.length };
}
