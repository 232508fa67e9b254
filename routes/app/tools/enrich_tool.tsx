/**
 * `/app/tools/enrich`: an email address → the person behind it, through the body schema, verb
 * (`enrichEmail`) and the very `enrich` rate-limit budget of `POST /api/v1/enrich/email`: the
 * tool's uses and the API's calls count against one budget per workspace (spec §8).
 */
import type { Context, Hono } from "hono";
import type { DomainContext } from "../../../domain/context.ts";
import { insufficientCredits } from "../../../domain/billing/insufficient_credits.ts";
import { enrichEmail, type EnrichResult } from "../../../domain/enrich/enrich_email.ts";
import { EnrichBodySchema } from "../../v1/enrich_email_schemas.ts";
import { points } from "../layout.tsx";
import { memberPage } from "../member_pages.ts";
import type { WebEnv } from "../web_env.ts";
import { EmailForm } from "./email_form.tsx";
import { ReasonBadge, ReasonSentence } from "./reasons.tsx";
import {
  answerToolForm,
  CostPanel,
  Maybe,
  newFormKey,
  OutsideLink,
  textField,
  ToolPage,
  TOOLS_PATH,
  type ToolState,
  utcTime,
  validated,
} from "./tool_call.tsx";

export const ENRICH_PATH = `${TOOLS_PATH}/enrich`;

const LABELS = { email: "Email address" };

interface EnrichValues {
  email: string;
}

const FIELD_LABELS: Record<string, string> = {
  "person.name": "name",
  "person.given": "given name",
  "person.surname": "surname",
  "person.title": "title",
  "person.companyName": "company",
  "person.location": "location",
  "person.headline": "headline",
  "person.networkUrl": "profile",
  "channels.emails": "other addresses",
  "channels.x": "X",
  "channels.telegram": "Telegram",
};

export function mountEnrichTool(web: Hono<WebEnv>, ctx: DomainContext): void {
  web.get(
    "/tools/enrich",
    memberPage(ctx),
    (c) => renderEnrich(c, ctx, { values: { email: "" }, formKey: newFormKey() }),
  );

  web.post(
    "/tools/enrich",
    memberPage(ctx),
    (c) =>
      answerToolForm<EnrichValues, EnrichResult>(c, ctx, {
        budget: "enrich",
        labels: LABELS,
        read: (form) => ({ email: textField(form, "email") }),
        run: async (values, call) => {
          const body = validated(EnrichBodySchema, values);
          const answer = await enrichEmail(ctx, { ...call, email: body.email });
          if (answer.reason === "insufficient-credits") {
            throw insufficientCredits(ctx.prices.enrich, answer.balance?.available ?? 0);
          }
          return answer;
        },
        render: (c, state) => renderEnrich(c, ctx, state),
      }),
  );
}

function renderEnrich(
  c: Context<WebEnv>,
  ctx: DomainContext,
  state: ToolState<EnrichValues, EnrichResult>,
) {
  const member = c.get("member");
  const { values, answer } = state;
  return c.html(
    <ToolPage
      title="Enrich email"
      member={member}
      intro={
        <>
          Turn an email address into a contact profile from what public sources state (our records,
          Gravatar, GitHub, the professional network). {points(ctx.prices.enrich)}{" "}
          points per completed enrichment, found or not; nothing is charged when a source cannot
          answer. Shares its rate limit with the API’s enrich calls.
        </>
      }
    >
      <EmailForm
        id="enrich-form"
        action={ENRICH_PATH}
        submit="Enrich"
        member={member}
        formKey={state.formKey}
        email={values.email}
        message={state.message}
      />
      {answer ? <EnrichAnswerPanel answer={answer.result} balance={answer.balance} /> : null}
    </ToolPage>,
  );
}

function EnrichAnswerPanel(
  props: { answer: EnrichResult; balance: NonNullable<EnrichResult["balance"]> },
) {
  const { answer } = props;
  const person = answer.person;
  const channels = answer.channels;
  return (
    <section class="panel" aria-labelledby="enrich-answer" data-answer="enrich">
      <h2 id="enrich-answer">
        {answer.found
          ? <span class="badge ok">Found</span>
          : <ReasonBadge reason={answer.reason ?? "not-found"} />}{" "}
        <span class="mono tool-url">{answer.email}</span>
      </h2>
      {answer.reason ? <ReasonSentence tool="enrich" reason={answer.reason} /> : null}
      {person
        ? (
          <dl class="facts tool-facts">
            <dt>Name</dt>
            <dd class="tool-strong">
              <Maybe value={person.name} />
            </dd>
            <dt>Title</dt>
            <dd>
              <Maybe value={person.title} />
            </dd>
            <dt>Company</dt>
            <dd>
              <Maybe value={person.companyName} />
            </dd>
            <dt>Location</dt>
            <dd>
              <Maybe value={person.location} />
            </dd>
            <dt>Headline</dt>
            <dd>
              <Maybe value={person.headline} />
            </dd>
            <dt>Profile</dt>
            <dd>
              {person.networkUrl
                ? <OutsideLink href={person.networkUrl} />
                : <span class="muted">—</span>}
            </dd>
            {channels && (channels.x || channels.telegram || channels.emails.length > 0)
              ? (
                <>
                  <dt>Channels</dt>
                  <dd>
                    {[
                      channels.x ? `X @${channels.x}` : null,
                      channels.telegram ? `Telegram @${channels.telegram}` : null,
                      ...channels.emails,
                    ].filter(Boolean).join(" · ")}
                  </dd>
                </>
              )
              : null}
          </dl>
        )
        : null}
      {answer.address
        ? (
          <p class="muted tool-address">
            <span class="badge">{answer.address.kind} address</span> {answer.address.note}
          </p>
        )
        : null}
      {answer.sources.length > 0
        ? (
          <>
            <h3>Sources</h3>
            <div class="table-wrap">
              <table class="tool-sources">
                <thead>
                  <tr>
                    <th>Source</th>
                    <th>Stated</th>
                    <th>Page</th>
                    <th>Read</th>
                  </tr>
                </thead>
                <tbody>
                  {answer.sources.map((source) => (
                    <tr>
                      <td class="tool-strong">{source.source}</td>
                      <td>{source.fields.map((f) => FIELD_LABELS[f] ?? f).join(", ")}</td>
                      <td>
                        {source.url
                          ? <OutsideLink href={source.url} />
                          : <span class="muted">—</span>}
                      </td>
                      <td class="tool-nowrap">{utcTime(source.retrievedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )
        : null}
      {answer.cached
        ? <p class="muted">Answered from a recent identical enrichment (charged like a new one).</p>
        : null}
      <CostPanel
        billing={answer}
        balance={props.balance}
        why={answer.reason && answer.reason !== "not-found"
          ? "Nothing was delivered, so nothing was charged."
          : undefined}
      />
    </section>
  );
}
