/**
 * `/app/domain-search`: a domain (or company) in; its mail, its address pattern and a page of the
 * people the service knows there out, through the body schema, verb (`searchDomain`) and
 * `domain_search` rate-limit budget of `POST /api/v1/domain-search`, so the page is billed
 * exactly as the API call is (a page with a verified address once; anything else free). "Find
 * the rest" starts a bulk find job for the people of the search without a verified address.
 */
import type { Context, Hono } from "hono";
import type { DomainContext } from "../../domain/context.ts";
import {
  type Department,
  DEPARTMENTS,
  SENIORITIES,
  type Seniority,
} from "../../domain/directory/person_vocabulary.ts";
import type {
  DomainSearchReason,
  PatternNullReason,
} from "../../domain/domain_search/domain_search_answer.ts";
import { findTheRest } from "../../domain/domain_search/find_the_rest.ts";
import { type DomainSearchResult, searchDomain } from "../../domain/domain_search/search_domain.ts";
import { ServiceError } from "../../domain/errors.ts";
import { DomainSearchBodySchema } from "../v1/domain_search_schemas.ts";
import { CsrfField, Notice, Page, points } from "./layout.tsx";
import { refusedByRateLimit } from "./lead_search/parts.tsx";
import { jobPath } from "./bulk/bulk_parts.tsx";
import { memberPage } from "./member_pages.ts";
import { confidence } from "./numbers.ts";
import { patiently } from "./patiently.ts";
import {
  answerToolForm,
  CostPanel,
  type FormFields,
  formKeyOf,
  IdempotencyField,
  Maybe,
  newFormKey,
  OutsideLink,
  refusalOf,
  textField,
  ToolMessage,
  type ToolState,
  utcTime,
  validated,
} from "./tools/tool_call.tsx";
import type { WebEnv } from "./web_env.ts";

export const DOMAIN_SEARCH_PATH = "/app/domain-search";
const FIND_REST_PATH = `${DOMAIN_SEARCH_PATH}/find-the-rest`;

const LABELS = { domain: "Domain", company: "Company", title: "Title words", cursor: "Page" };

interface SearchValues {
  /** A domain, a website or a company name, as typed. */
  company: string;
  department: Department[];
  seniority: Seniority[];
  title: string;
  cursor: string;
}

/** Each reason in plain words. */
export const DOMAIN_SEARCH_REASON_TEXT: Record<DomainSearchReason, string> = {
  "not-found": "We know nobody at this domain yet. Nothing was charged.",
  "unusable-domain": "This domain cannot receive email. Nothing was charged.",
  "free-mail-domain":
    "This is a free mailbox provider: no company’s people live there. Nothing was charged.",
  "disposable-domain": "This is a throwaway-address service. Nothing was charged.",
  "do-not-contact": "This domain is on your do-not-contact list. Nothing was charged.",
  "company-not-found":
    "We could not tell this company’s domain; try its website. Nothing was charged.",
  "company-lookup-unavailable":
    "The company lookup could not answer right now; try again, or type the domain.",
  "insufficient-credits":
    "Not enough points for the verified addresses on this page, so they are hidden and nothing was charged.",
};

const PATTERN_REASON_TEXT: Record<PatternNullReason, string> = {
  "no-verified-addresses": "No verified address at this domain yet, so no pattern.",
  "too-few-addresses": "Too few verified addresses follow any one format to state a pattern.",
};

function readValues(form: FormFields): SearchValues {
  const all = (name: string) => {
    const value = form[name] ?? form[`${name}[]`];
    return (Array.isArray(value) ? value : value === undefined ? [] : [value])
      .filter((v): v is string => typeof v === "string");
  };
  return {
    company: textField(form, "company"),
    department: all("department").filter((d): d is Department =>
      (DEPARTMENTS as readonly string[]).includes(d)
    ),
    seniority: all("seniority").filter((s): s is Seniority =>
      (SENIORITIES as readonly string[]).includes(s)
    ),
    title: textField(form, "title"),
    cursor: textField(form, "cursor"),
  };
}

/** A domain or website goes as `domain`; anything with a space or without a dot as a name. */
function targetOf(values: SearchValues) {
  const text = values.company.trim();
  return !/\s/.test(text) && text.includes(".") ? { domain: text } : { company: text };
}

const EMPTY: SearchValues = { company: "", department: [], seniority: [], title: "", cursor: "" };

export function mountDomainSearchPage(web: Hono<WebEnv>, ctx: DomainContext): void {
  web.get(
    "/domain-search",
    memberPage(ctx),
    (c) => renderSearch(c, ctx, { values: EMPTY, formKey: newFormKey() }),
  );

  web.post(
    "/domain-search",
    memberPage(ctx),
    (c) =>
      answerToolForm<SearchValues, DomainSearchResult>(c, ctx, {
        budget: "domain_search",
        labels: LABELS,
        read: readValues,
        run: async (values, call) => {
          const body = validated(DomainSearchBodySchema, {
            ...(targetOf(values).domain !== undefined
              ? { domain: values.company }
              : { company: values.company }),
            ...(values.department.length ? { department: values.department } : {}),
            ...(values.seniority.length ? { seniority: values.seniority } : {}),
            ...(values.title.trim() ? { title: values.title } : {}),
            ...(values.cursor ? { cursor: values.cursor } : {}),
            limit: 25,
          });
          return await searchDomain(ctx, {
            ...call,
            target: body.domain
              ? { domain: body.domain.trim() }
              : { company: body.company!.trim() },
            department: body.department,
            seniority: body.seniority,
            title: body.title,
            limit: body.limit,
            cursor: body.cursor,
          });
        },
        render: (c, state) => renderSearch(c, ctx, state),
      }),
  );

  web.post("/domain-search/find-the-rest", memberPage(ctx), async (c) => {
    const member = c.get("member");
    const form = await c.req.parseBody() as FormFields;
    const values = readValues(form);
    const key = formKeyOf(form);
    const again = (status: number, body: string) => {
      c.status(status as 400);
      return renderSearch(c, ctx, {
        values,
        formKey: newFormKey(),
        message: { kind: "error", body },
      });
    };
    const limited = await refusedByRateLimit(c, ctx, "bulk");
    if (limited) return again(429, limited);
    try {
      const started = await patiently(() =>
        findTheRest(ctx, {
          workspaceId: member.workspaceId,
          idempotencyKey: key,
          target: targetOf(values),
          department: values.department.length ? values.department : undefined,
          seniority: values.seniority.length ? values.seniority : undefined,
          title: values.title.trim() || undefined,
        })
      );
      if (started.kind === "nothing") {
        return again(
          200,
          started.reason
            ? DOMAIN_SEARCH_REASON_TEXT[started.reason]
            : "Everyone this search finds already has a verified address.",
        );
      }
      const job = started.answer.job!;
      const query = started.answer.replay ? "?replayed=1" : `?reserved=${job.pointsReserved}`;
      return c.redirect(jobPath(job.id) + query, 303);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      const refusal = refusalOf(error, LABELS);
      return again(refusal.status, refusal.message);
    }
  });
}

function renderSearch(
  c: Context<WebEnv>,
  ctx: DomainContext,
  state: ToolState<SearchValues, DomainSearchResult>,
) {
  const member = c.get("member");
  const { values, answer } = state;
  return c.html(
    <Page title="Domain search" section="domain-search" member={member}>
      <p class="muted tool-intro">
        A company’s email pattern and the people we know there, from our own records.{" "}
        {points(ctx.prices.domainSearch)}{" "}
        points for a page that shows at least one verified email; a page without one, the pattern
        alone and refusals are free. The count (<code>GET /api/v1/domain-search/count</code>) is
        always free.
      </p>
      <section class="panel" aria-labelledby="domain-search-form">
        <h2 id="domain-search-form">Which company?</h2>
        <ToolMessage message={state.message} />
        <form method="post" action={DOMAIN_SEARCH_PATH} class="stack">
          <CsrfField member={member} />
          <IdempotencyField value={state.formKey} />
          <SearchFields values={values} />
          <div class="row">
            <button type="submit">Search</button>
          </div>
        </form>
      </section>
      {answer
        ? (
          <SearchAnswer
            answer={answer.result}
            balance={answer.balance}
            values={values}
            member={member}
          />
        )
        : null}
    </Page>,
  );
}

function SearchFields(props: { values: SearchValues }) {
  const { values } = props;
  return (
    <>
      <div class="row">
        <div class="field">
          <label for="company">Domain, website or company name</label>
          <input
            id="company"
            name="company"
            type="text"
            value={values.company}
            placeholder="acme.com"
            autocomplete="off"
            spellcheck={false}
            required
          />
        </div>
        <div class="field">
          <label for="title">Title words</label>
          <input id="title" name="title" type="text" value={values.title} placeholder="engineer" />
        </div>
      </div>
      <fieldset class="lead-headcount">
        <legend class="label-text">Department</legend>
        <div class="lead-checks">
          {DEPARTMENTS.map((department) => (
            <label>
              <input
                type="checkbox"
                name="department"
                value={department}
                checked={values.department.includes(department)}
              />{" "}
              {department}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset class="lead-headcount">
        <legend class="label-text">Seniority</legend>
        <div class="lead-checks">
          {SENIORITIES.map((seniority) => (
            <label>
              <input
                type="checkbox"
                name="seniority"
                value={seniority}
                checked={values.seniority.includes(seniority)}
              />{" "}
              {seniority}
            </label>
          ))}
        </div>
      </fieldset>
    </>
  );
}

/** The search's values as hidden fields (the next page, find the rest). */
function HiddenValues(props: { values: SearchValues }) {
  const { values } = props;
  return (
    <>
      <input type="hidden" name="company" value={values.company} />
      <input type="hidden" name="title" value={values.title} />
      {values.department.map((d) => <input key={d} type="hidden" name="department" value={d} />)}
      {values.seniority.map((s) => <input key={s} type="hidden" name="seniority" value={s} />)}
    </>
  );
}

function SearchAnswer(
  props: {
    answer: DomainSearchResult;
    balance: NonNullable<DomainSearchResult["balance"]>;
    values: SearchValues;
    member: WebEnv["Variables"]["member"];
  },
) {
  const { answer, values, member } = props;
  const org = answer.organization;
  const withoutEmail = answer.people.filter((person) => person.email === null).length;
  return (
    <section class="panel" aria-labelledby="domain-search-answer" data-answer="domain-search">
      <h2 id="domain-search-answer">
        {org ? <span class="mono tool-url">{org.domain}</span> : "No company"}
        {org?.name ? <>{" "}· {org.name}</> : null}
      </h2>
      {answer.reason
        ? (
          <p class="tool-reason" data-reason={answer.reason}>
            {DOMAIN_SEARCH_REASON_TEXT[answer.reason]}
          </p>
        )
        : null}
      {answer.mail
        ? (
          <dl class="facts tool-facts">
            <dt>Mail hosts</dt>
            <dd class="mono">
              {answer.mail.mxRecords.length
                ? answer.mail.mxRecords.join(", ")
                : <Maybe value={null} />}
            </dd>
            <dt>Provider</dt>
            <dd>
              <Maybe value={answer.mail.provider} />
            </dd>
            <dt>Catch-all</dt>
            <dd>
              {answer.mail.catchAll === null ? <span class="muted">not probed lately</span> : (
                <>
                  {answer.mail.catchAll ? "yes" : "no"}{" "}
                  <span class="muted">(probed {utcTime(answer.mail.catchAllCheckedAt!)})</span>
                </>
              )}
            </dd>
            <dt>Pattern</dt>
            <dd data-pattern={answer.pattern?.name ?? ""}>
              {answer.pattern
                ? (
                  <>
                    <strong class="mono">{answer.pattern.format}</strong>{" "}
                    <span class="muted">
                      {answer.pattern.supportingAddresses} verified addresses,{" "}
                      {Math.round(answer.pattern.share * 100)}% of those that follow a pattern;
                      confidence {confidence(answer.pattern.confidence)}
                      {answer.pattern.lastConfirmedAt
                        ? `; last confirmed ${utcTime(answer.pattern.lastConfirmedAt)}`
                        : ""}
                    </span>
                  </>
                )
                : answer.patternReason
                ? <span class="muted">{PATTERN_REASON_TEXT[answer.patternReason]}</span>
                : <Maybe value={null} />}
            </dd>
          </dl>
        )
        : null}
      {answer.people.length > 0
        ? (
          <>
            <h3>
              People <span class="muted">({answer.total} in all)</span>
            </h3>
            <div class="table-wrap">
              <table class="card-rows">
                <thead>
                  <tr>
                    <th>Name</th>
                    <th>Title</th>
                    <th>Department</th>
                    <th>Seniority</th>
                    <th>Email</th>
                    <th>Profile</th>
                  </tr>
                </thead>
                <tbody>
                  {answer.people.map((person) => (
                    <tr data-person>
                      <td class="tool-strong card-title">{person.name}</td>
                      <td>
                        <Maybe value={person.title} />
                      </td>
                      <td>
                        <Maybe value={person.department} />
                      </td>
                      <td>
                        <Maybe value={person.seniority} />
                      </td>
                      <td>
                        {person.email
                          ? (
                            <>
                              <span class="mono">{person.email.address}</span>{" "}
                              <span class="muted">
                                {person.email.method}, {utcTime(person.email.verifiedAt)}
                              </span>
                            </>
                          )
                          : <span class="muted">—</span>}
                      </td>
                      <td>
                        {person.networkUrl
                          ? <OutsideLink href={person.networkUrl}>profile</OutsideLink>
                          : <span class="muted">—</span>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div class="row">
              {answer.nextCursor
                ? (
                  <form method="post" action={DOMAIN_SEARCH_PATH}>
                    <CsrfField member={member} />
                    <IdempotencyField value={newFormKey()} />
                    <HiddenValues values={values} />
                    <input type="hidden" name="cursor" value={answer.nextCursor} />
                    <button type="submit" class="secondary">Next page</button>
                  </form>
                )
                : null}
              {withoutEmail > 0 || answer.total > answer.people.length
                ? (
                  <form method="post" action={FIND_REST_PATH} data-form="find-the-rest">
                    <CsrfField member={member} />
                    <IdempotencyField value={newFormKey()} />
                    <HiddenValues values={values} />
                    <button type="submit">Find the rest</button>
                  </form>
                )
                : null}
            </div>
            <p class="muted">
              “Find the rest” starts a bulk find job for everyone this search finds without a
              verified address (up to 10,000), by name at this domain; it reserves the worst case
              and is settled as rows are answered.
            </p>
          </>
        )
        : null}
      {answer.reason === "do-not-contact"
        ? (
          <Notice kind="info">
            <a href="/app/do-not-contact">See the list</a>.
          </Notice>
        )
        : null}
      <CostPanel
        billing={answer}
        balance={props.balance}
        why={answer.people.some((p) => p.email)
          ? undefined
          : "No verified email on this page, so nothing was charged."}
      />
    </section>
  );
}
