/**
 * `/app/tools/network-search`: a person's public professional-network profile from a first and
 * last name (and an employer), through the body schema, verb (`searchNetwork`) and
 * `network_search` budget of `POST /api/v1/network-search`.
 */
import type { Context, Hono } from "hono";
import type { DomainContext } from "../../../domain/context.ts";
import { insufficientCredits } from "../../../domain/billing/insufficient_credits.ts";
import {
  type NetworkSearchResult,
  searchNetwork,
} from "../../../domain/network_search/search_network.ts";
import { NetworkSearchBodySchema } from "../../v1/network_search_schemas.ts";
import { CsrfField, points } from "../layout.tsx";
import { memberPage } from "../member_pages.ts";
import type { WebEnv } from "../web_env.ts";
import { ReasonBadge, ReasonSentence } from "./reasons.tsx";
import { FIND_PATH } from "./find_tool.tsx";
import {
  answerToolForm,
  CostPanel,
  IdempotencyField,
  Maybe,
  newFormKey,
  OutsideLink,
  textField,
  ToolMessage,
  ToolPage,
  TOOLS_PATH,
  type ToolState,
  validated,
} from "./tool_call.tsx";

export const NETWORK_SEARCH_PATH = `${TOOLS_PATH}/network-search`;

const LABELS = { firstName: "First name", lastName: "Last name", company: "Company" };

interface SearchValues {
  firstName: string;
  lastName: string;
  company: string;
}

export function mountNetworkSearchTool(web: Hono<WebEnv>, ctx: DomainContext): void {
  web.get("/tools/network-search", memberPage(ctx), (c) =>
    renderSearch(c, ctx, {
      values: { firstName: "", lastName: "", company: "" },
      formKey: newFormKey(),
    }));

  web.post(
    "/tools/network-search",
    memberPage(ctx),
    (c) =>
      answerToolForm<SearchValues, NetworkSearchResult>(c, ctx, {
        budget: "network_search",
        labels: LABELS,
        read: (form) => ({
          firstName: textField(form, "firstName"),
          lastName: textField(form, "lastName"),
          company: textField(form, "company"),
        }),
        run: async (values, call) => {
          const body = validated(NetworkSearchBodySchema, values);
          const answer = await searchNetwork(ctx, {
            ...call,
            // As the API route: a blank employer is no employer.
            search: {
              firstName: body.firstName,
              lastName: body.lastName,
              company: body.company || null,
            },
          });
          if (answer.reason === "insufficient-credits") {
            throw insufficientCredits(ctx.prices.networkSearch, answer.balance?.available ?? 0);
          }
          return answer;
        },
        render: (c, state) => renderSearch(c, ctx, state),
      }),
  );
}

function renderSearch(
  c: Context<WebEnv>,
  ctx: DomainContext,
  state: ToolState<SearchValues, NetworkSearchResult>,
) {
  const member = c.get("member");
  const { values, answer } = state;
  return c.html(
    <ToolPage
      title="Network search"
      member={member}
      intro={
        <>
          Find a person’s public professional-network profile by name: our directory first, then the
          web search. {points(ctx.prices.networkSearch)}{" "}
          points per completed search, a match or none; a search that cannot run is free.
        </>
      }
    >
      <section class="panel" aria-labelledby="search-form">
        <h2 id="search-form">Who are you looking for?</h2>
        <ToolMessage message={state.message} />
        <form method="post" action={NETWORK_SEARCH_PATH} class="stack">
          <CsrfField member={member} />
          <IdempotencyField value={state.formKey} />
          <div class="row">
            <div class="field">
              <label for="firstName">First name</label>
              <input
                id="firstName"
                name="firstName"
                type="text"
                value={values.firstName}
                placeholder="Grace"
                autocomplete="off"
                required
              />
            </div>
            <div class="field">
              <label for="lastName">Last name</label>
              <input
                id="lastName"
                name="lastName"
                type="text"
                value={values.lastName}
                placeholder="Hopper"
                autocomplete="off"
                required
              />
            </div>
          </div>
          <div class="field">
            <label for="company">
              Company <span class="muted">(optional)</span>
            </label>
            <input
              id="company"
              name="company"
              type="text"
              value={values.company}
              placeholder="Acme"
              autocomplete="off"
              aria-describedby="company-hint"
            />
            <span class="hint" id="company-hint">
              The employer as people write it: a profile at another employer is not returned.
            </span>
          </div>
          <div class="row tool-submit">
            <button type="submit">Search</button>
          </div>
        </form>
      </section>
      {answer ? <SearchAnswer answer={answer.result} balance={answer.balance} /> : null}
    </ToolPage>,
  );
}

function SearchAnswer(
  props: { answer: NetworkSearchResult; balance: NonNullable<NetworkSearchResult["balance"]> },
) {
  const { answer } = props;
  const [match] = answer.matches;
  return (
    <section class="panel" aria-labelledby="search-answer" data-answer="network-search">
      <h2 id="search-answer">
        {match
          ? <span class="badge ok">Match</span>
          : answer.reason
          ? <ReasonBadge reason={answer.reason} />
          : <span class="badge bad">No match</span>} {match ? match.name : "No profile found"}
      </h2>
      {match
        ? (
          <>
            <dl class="facts tool-facts">
              <dt>Headline</dt>
              <dd>
                <Maybe value={match.headline} />
              </dd>
              <dt>Title</dt>
              <dd>
                <Maybe value={match.title} />
              </dd>
              <dt>Company</dt>
              <dd>
                <Maybe value={match.companyName} />
              </dd>
              <dt>Location</dt>
              <dd>
                <Maybe value={match.location} />
              </dd>
              <dt>Profile</dt>
              <dd>
                <OutsideLink href={match.networkUrl} />
              </dd>
            </dl>
            <p class="tool-next">
              <a
                class="button subtle"
                href={`${FIND_PATH}?mode=network&networkUrl=${
                  encodeURIComponent(match.networkUrl)
                }`}
              >
                Find this person’s email
              </a>
            </p>
          </>
        )
        : (
          answer.reason
            ? <ReasonSentence tool="network-search" reason={answer.reason} />
            : (
              <p class="tool-reason" data-reason="">
                No profile matched this name (and employer) closely enough. The search was
                completed, so it is charged.
              </p>
            )
        )}
      {answer.cached
        ? <p class="muted">Answered from a recent identical search (charged like a new one).</p>
        : null}
      <CostPanel
        billing={answer}
        balance={props.balance}
        why={answer.reason === "search-unavailable"
          ? "The search could not run, so nothing was charged."
          : undefined}
      />
    </section>
  );
}
