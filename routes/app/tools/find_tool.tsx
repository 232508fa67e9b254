/**
 * `/app/tools/find`: a verified work email in the three modes of `POST /api/v1/find` (name +
 * company domain, name + company name, profile URL), through the same body schema, the same
 * `toFindInput`, the same verb (`findWorkEmail`) and the same `find` budget. Every outcome is an
 * answer: found, or not found with its reason in plain words and what it cost.
 */
import type { Context, Hono } from "hono";
import type { Child } from "hono/jsx";
import type { DomainContext } from "../../../domain/context.ts";
import type { FindMode, FindReason } from "../../../domain/find/find_answer.ts";
import {
  findWorkEmail,
  findWorstCase,
  type FoundEmail,
} from "../../../domain/find/find_work_email.ts";
import { insufficientCredits } from "../../../domain/billing/insufficient_credits.ts";
import { FindBodySchema, toFindInput } from "../../v1/find_schemas.ts";
import { CsrfField, points } from "../layout.tsx";
import { memberPage } from "../member_pages.ts";
import type { WebEnv } from "../web_env.ts";
import { ReasonBadge, ReasonSentence } from "./reasons.tsx";
import {
  answerToolForm,
  CostPanel,
  IdempotencyField,
  newFormKey,
  OutsideLink,
  textField,
  ToolMessage,
  ToolPage,
  TOOLS_PATH,
  type ToolState,
  utcTime,
  validated,
} from "./tool_call.tsx";
import { confidence } from "../numbers.ts";

export const FIND_PATH = `${TOOLS_PATH}/find`;

const LABELS = { name: "Full name", company: "Company", networkUrl: "Profile URL" };

export interface FindValues {
  mode: FindMode;
  name: string;
  company: string;
  networkUrl: string;
}

const MODES: { mode: FindMode; label: string }[] = [
  { mode: "email", label: "Name + company domain" },
  { mode: "company", label: "Name + company name" },
  { mode: "network", label: "Profile URL" },
];

function modeOf(value: string | undefined): FindMode {
  return value === "company" || value === "network" ? value : "email";
}

export function mountFindTool(web: Hono<WebEnv>, ctx: DomainContext): void {
  web.get("/tools/find", memberPage(ctx), (c) => {
    const mode = modeOf(c.req.query("mode"));
    // A profile URL may arrive from the network-search tool's answer; nothing else is prefilled.
    const networkUrl = mode === "network" ? c.req.query("networkUrl") ?? "" : "";
    return renderFind(c, ctx, {
      values: { mode, name: "", company: "", networkUrl },
      formKey: newFormKey(),
    });
  });

  web.post("/tools/find", memberPage(ctx), (c) =>
    answerToolForm<FindValues, FoundEmail>(c, ctx, {
      budget: "find",
      labels: LABELS,
      words: (message) =>
        message.replace(
          "(send a company name with mode company)",
          "(for a company’s name, use “Name + company name”)",
        ),
      read: (form) => ({
        mode: modeOf(textField(form, "mode")),
        name: textField(form, "name"),
        company: textField(form, "company"),
        networkUrl: textField(form, "networkUrl"),
      }),
      run: async (values, call) => {
        // Only the fields of the chosen mode are sent, as an API client of that mode would.
        const body = values.mode === "network"
          ? { mode: values.mode, networkUrl: values.networkUrl }
          : { mode: values.mode, name: values.name, company: values.company };
        const find = toFindInput(validated(FindBodySchema, body));
        const answer = await findWorkEmail(ctx, { ...call, find });
        if (answer.reason === "insufficient-credits") {
          throw insufficientCredits(
            findWorstCase(ctx, values.mode),
            answer.balance?.available ?? 0,
          );
        }
        return answer;
      },
      render: (c, state) => renderFind(c, ctx, state),
    }));
}

function renderFind(
  c: Context<WebEnv>,
  ctx: DomainContext,
  state: ToolState<FindValues, FoundEmail>,
) {
  const member = c.get("member");
  const { values, answer } = state;
  const { prices } = ctx;
  return c.html(
    <ToolPage
      title="Find email"
      member={member}
      intro={
        <>
          Find a person’s work email, verified with the company’s mail server or by our recent
          records: never a guess. {points(prices.findEmail)}{" "}
          points per completed lookup (found, not found or catch-all); by company name{" "}
          {points(prices.findCompany)}{" "}
          more to find the company’s domain. Lookups that cannot run are free.
        </>
      }
    >
      <nav class="tabs" aria-label="Find by">
        {MODES.map((m) => (
          <a
            href={`${FIND_PATH}?mode=${m.mode}`}
            class={m.mode === values.mode ? "active" : ""}
            aria-current={m.mode === values.mode ? "page" : undefined}
          >
            {m.label}
          </a>
        ))}
      </nav>
      <section class="panel" aria-labelledby="find-form">
        <h2 id="find-form">{MODES.find((m) => m.mode === values.mode)!.label}</h2>
        <ToolMessage message={state.message} />
        <form method="post" action={FIND_PATH} class="stack">
          <CsrfField member={member} />
          <IdempotencyField value={state.formKey} />
          <input type="hidden" name="mode" value={values.mode} />
          <FindFields values={values} />
          <div class="row tool-submit">
            <button type="submit">Find the email</button>
            <span class="muted">
              Costs up to {points(findWorstCase(ctx, values.mode))} points.
            </span>
          </div>
        </form>
      </section>
      {answer
        ? <FindAnswerPanel ctx={ctx} answer={answer.result} balance={answer.balance} />
        : null}
    </ToolPage>,
  );
}

function FindFields(props: { values: FindValues }) {
  const { values } = props;
  if (values.mode === "network") {
    return (
      <div class="field">
        <label for="networkUrl">Profile URL</label>
        <input
          id="networkUrl"
          name="networkUrl"
          type="url"
          value={values.networkUrl}
          placeholder="https://www.linkedin.com/in/grace-hopper"
          required
          aria-describedby="networkUrl-hint"
        />
        <span class="hint" id="networkUrl-hint">
          The person’s professional-network profile; our directory or the web search tells who and
          where they work.
        </span>
      </div>
    );
  }
  const byName = values.mode === "company";
  return (
    <div class="row tool-fields">
      <div class="field">
        <label for="name">Full name</label>
        <input
          id="name"
          name="name"
          type="text"
          value={values.name}
          placeholder="Grace Hopper"
          autocomplete="off"
          required
        />
      </div>
      <div class="field">
        <label for="company">{byName ? "Company name" : "Company domain or website"}</label>
        <input
          id="company"
          name="company"
          type="text"
          value={values.company}
          placeholder={byName ? "Acme Inc." : "acme.com"}
          autocomplete="off"
          required
          aria-describedby="company-hint"
        />
        <span class="hint" id="company-hint">
          {byName
            ? "As people write it; our directory, then Wikidata, finds its domain."
            : "A website URL is reduced to its host (https://www.acme.com/about → acme.com)."}
        </span>
      </div>
    </div>
  );
}

const STATUS_TEXT: Record<FoundEmail["status"], string> = {
  valid: "Valid: delivered to this person",
  invalid: "Invalid: every likely address was rejected, or the domain takes no mail",
  "catch-all": "Catch-all: the domain accepts every address",
  unknown: "Unknown: not verified",
};

function FindAnswerPanel(
  props: { ctx: DomainContext; answer: FoundEmail; balance: ToolBalance },
) {
  const { answer } = props;
  return (
    <section class="panel" aria-labelledby="find-answer" data-answer="find">
      <h2 id="find-answer">
        {answer.found
          ? <span class="badge ok">Found</span>
          : <ReasonBadge reason={answer.reason ?? "not-found"} />}{" "}
        {answer.found ? "A verified address" : "No verified address"}
      </h2>
      {answer.found && answer.email
        ? (
          <div class="secret tool-email">
            <input
              id="found-email"
              type="text"
              readonly
              value={answer.email}
              aria-label="The address"
            />
            <button type="button" class="subtle" data-copy-target="found-email">Copy</button>
          </div>
        )
        : (
          answer.reason
            ? <ReasonSentence tool="find" reason={answer.reason} />
            : <p class="tool-reason" data-reason="">No address was delivered.</p>
        )}
      <dl class="facts tool-facts">
        <dt>Status</dt>
        <dd>{STATUS_TEXT[answer.status]}</dd>
        <dt>Confidence</dt>
        <dd>{confidence(answer.confidence)}</dd>
        <dt>Evidence</dt>
        <dd>{evidence(answer)}</dd>
        {answer.company
          ? (
            <>
              <dt>Mail domain</dt>
              <dd>
                <span class="mono">{answer.company.domain}</span>{" "}
                <span class="muted">({companySource(answer.company)})</span>
              </dd>
            </>
          )
          : null}
        {answer.person ? <PersonFacts person={answer.person} /> : null}
        {answer.resolvedProfile
          ? (
            <>
              <dt>Profile</dt>
              <dd>
                <OutsideLink href={answer.resolvedProfile.networkUrl}>
                  {answer.resolvedProfile.name}
                </OutsideLink>
                {answer.resolvedProfile.headline
                  ? <span class="muted">{` — ${answer.resolvedProfile.headline}`}</span>
                  : null}
              </dd>
            </>
          )
          : null}
      </dl>
      <CostPanel
        billing={answer}
        balance={props.balance}
        why={answer.reason ? notChargedWhy(answer.reason) : undefined}
      />
    </section>
  );
}

type ToolBalance = NonNullable<FoundEmail["balance"]>;

function PersonFacts(props: { person: NonNullable<FoundEmail["person"]> }) {
  const { person } = props;
  const work = [person.title, person.companyName].filter(Boolean).join(" at ");
  return (
    <>
      <dt>Person</dt>
      <dd>
        {person.name}
        {work ? <span class="muted">{` — ${work}`}</span> : null}
        {person.location ? <span class="muted">, {person.location}</span> : null}
      </dd>
    </>
  );
}

function evidence(answer: FoundEmail): Child {
  const v = answer.verification;
  if (!v) return <span class="muted">No mail server or record was consulted.</span>;
  if (v.method === "directory") {
    return `Our records: verified with the mail server on ${utcTime(v.checkedAt)}.`;
  }
  const reply = v.smtpCode === null
    ? "no reply read"
    : `reply ${v.smtpCode}${v.enhancedStatus ? ` (${v.enhancedStatus})` : ""}`;
  return (
    <>
      Asked the mail server <span class="mono">{v.mxHost ?? "?"}</span>: {reply}, at{" "}
      {utcTime(v.checkedAt)}.
    </>
  );
}

function companySource(company: NonNullable<FoundEmail["company"]>): string {
  if (company.source === "request") return "as you gave it";
  if (company.source === "directory") return `${company.name ?? "the company"}, from our records`;
  if (company.source.startsWith("wikidata:")) {
    return `${company.name ?? "the company"}, from Wikidata ${company.source.slice(9)}`;
  }
  return company.source;
}

function notChargedWhy(reason: FindReason): string {
  switch (reason) {
    case "verification-unavailable":
      return "The check could not be made, so it is not charged.";
    case "unusable-domain":
    case "free-mail-domain":
    case "disposable-domain":
    case "profile-not-found":
    case "invalid-input":
      return "No email search ran, so nothing was charged.";
    default:
      return "Nothing was charged for this answer.";
  }
}
