/**
 * `/app/tools/name-parse` (one name: the same verb and `name_parse` budget as `POST
 * /api/v1/name/parse`) and `/app/tools/name-parse/list` (a pasted list: the same verb and
 * `name_parse_batch` budget as `POST /api/v1/name/parse/batch`), with the list's answers as CSV.
 *
 * Privacy (spec §1): names are never stored, logged or cached, so the CSV cannot come from
 * storage. The answer page keeps the names in a hidden field of its "Download CSV" form, which
 * re-posts them under the SAME Idempotency-Key with `format=csv`: the batch verb answers that as
 * a replay (recomputed, every row already paid under the key), so the download costs nothing and
 * nothing was kept anywhere but in the member's own page.
 */
import type { Context, Hono } from "hono";
import type { DomainContext } from "../../../domain/context.ts";
import type { Balance } from "../../../domain/billing/balance.ts";
import { type ParsedName, parseName } from "../../../domain/name_parse/parse_name.ts";
import {
  type BatchRow,
  type ParsedBatch,
  parseNamesBatch,
} from "../../../domain/name_parse/parse_names_batch.ts";
import type { NameAnswer } from "../../../domain/name_parse/name_answer.ts";
import { ParseBatchBodySchema, ParseNameBodySchema } from "../../v1/name_parse_schemas.ts";
import { CsrfField, points } from "../layout.tsx";
import { memberPage } from "../member_pages.ts";
import type { WebEnv } from "../web_env.ts";
import { namesCsv } from "./names_csv.ts";
import {
  answerToolForm,
  CostPanel,
  IdempotencyField,
  Maybe,
  newFormKey,
  textField,
  ToolMessage,
  ToolPage,
  TOOLS_PATH,
  type ToolState,
  validated,
} from "./tool_call.tsx";
import { confidence } from "../numbers.ts";

export const NAME_PARSE_PATH = `${TOOLS_PATH}/name-parse`;
export const NAME_LIST_PATH = `${NAME_PARSE_PATH}/list`;

/** The API's batch limit, read from its own schema so the page can never promise another. */
export const BATCH_LIMIT: number = (() => {
  const tooMany = ParseBatchBodySchema.safeParse({
    names: Array.from({ length: 10_000 }, () => ""),
  });
  const issue = tooMany.error?.issues.find((i) => i.code === "too_big") as
    | { maximum?: number | bigint }
    | undefined;
  return Number(issue?.maximum ?? 100);
})();

const LIST_PLACEHOLDER = ["Ada Lovelace", "García Márquez, Gabriel", "Nagy László"].join("\n");

const LABELS = { name: "Name", names: "The list", spelling: "Spelling" };

interface OneValues {
  name: string;
  spelling: string;
}

interface ListValues {
  names: string;
  spelling: string;
  format: string;
}

/** One name per line; blank lines are skipped (a pasted list often ends with one). */
export function namesOfList(text: string): string[] {
  return text.split(/\r\n|\r|\n/).map((line) => line.trim()).filter((line) => line !== "");
}

export function mountNameParseTool(web: Hono<WebEnv>, ctx: DomainContext): void {
  web.get("/tools/name-parse", memberPage(ctx), (c) =>
    renderOne(c, ctx, {
      values: { name: "", spelling: "as-written" },
      formKey: newFormKey(),
    }));

  web.post(
    "/tools/name-parse",
    memberPage(ctx),
    (c) =>
      answerToolForm<OneValues, ParsedName>(c, ctx, {
        budget: "name_parse",
        labels: LABELS,
        read: (form) => ({
          name: textField(form, "name"),
          spelling: textField(form, "spelling") || "as-written",
        }),
        run: (values, call) => {
          const body = validated(ParseNameBodySchema, values);
          return parseName(ctx, {
            workspaceId: call.workspaceId,
            name: body.name,
            spelling: body.spelling ?? "as-written",
            idempotencyKey: call.idempotencyKey,
          });
        },
        render: (c, state) => renderOne(c, ctx, state),
      }),
  );

  web.get("/tools/name-parse/list", memberPage(ctx), (c) =>
    renderList(c, ctx, {
      values: { names: "", spelling: "as-written", format: "html" },
      formKey: newFormKey(),
    }));

  web.post(
    "/tools/name-parse/list",
    memberPage(ctx),
    (c) =>
      answerToolForm<ListValues, ParsedBatch>(c, ctx, {
        budget: "name_parse_batch",
        labels: LABELS,
        read: (form) => ({
          names: textField(form, "names"),
          spelling: textField(form, "spelling") || "as-written",
          format: textField(form, "format") === "csv" ? "csv" : "html",
        }),
        run: (values, call) => {
          const body = validated(ParseBatchBodySchema, {
            names: namesOfList(values.names),
            spelling: values.spelling,
          });
          return parseNamesBatch(ctx, {
            workspaceId: call.workspaceId,
            names: body.names,
            spelling: body.spelling ?? "as-written",
            idempotencyKey: call.idempotencyKey,
          });
        },
        render: (c, state) => {
          if (state.values.format === "csv" && state.answer) {
            const names = namesOfList(state.values.names);
            return c.body(namesCsv(names, state.answer.result.results), 200, {
              "Content-Type": "text/csv; charset=utf-8; header=present",
              "Content-Disposition": 'attachment; filename="names.csv"',
              "Cache-Control": "no-store",
            });
          }
          return renderList(c, ctx, state);
        },
      }),
  );
}

function Tabs(props: { active: "one" | "list" }) {
  return (
    <nav class="tabs" aria-label="Name parse">
      <a
        href={NAME_PARSE_PATH}
        class={props.active === "one" ? "active" : ""}
        aria-current={props.active === "one" ? "page" : undefined}
      >
        One name
      </a>
      <a
        href={NAME_LIST_PATH}
        class={props.active === "list" ? "active" : ""}
        aria-current={props.active === "list" ? "page" : undefined}
      >
        A list of names
      </a>
    </nav>
  );
}

function Intro(props: { ctx: DomainContext }) {
  return (
    <>
      Split a personal name into given name and surname, in either order, with the bundled name
      model (the rule answers when the model is not sure). {points(props.ctx.prices.nameParse)}{" "}
      point{props.ctx.prices.nameParse === 1 ? "" : "s"}{" "}
      per answered name; names that cannot be split are free. Names you type here are never stored
      or logged.
    </>
  );
}

function SpellingField(props: { id: string; value: string }) {
  return (
    <div class="field tool-spelling">
      <label for={props.id}>Spelling</label>
      <select id={props.id} name="spelling">
        <option value="as-written" selected={props.value !== "folded"}>As written</option>
        <option value="folded" selected={props.value === "folded"}>
          Folded (lower case, no accents)
        </option>
      </select>
    </div>
  );
}

function renderOne(
  c: Context<WebEnv>,
  ctx: DomainContext,
  state: ToolState<OneValues, ParsedName>,
) {
  const member = c.get("member");
  const { values, answer } = state;
  return c.html(
    <ToolPage title="Name parse" member={member} intro={<Intro ctx={ctx} />}>
      <Tabs active="one" />
      <section class="panel" aria-labelledby="one-name">
        <h2 id="one-name">One name</h2>
        <ToolMessage message={state.message} />
        <form method="post" action={NAME_PARSE_PATH} class="stack">
          <CsrfField member={member} />
          <IdempotencyField value={state.formKey} />
          <div class="field">
            <label for="name">Full name</label>
            <input
              id="name"
              name="name"
              type="text"
              value={values.name}
              placeholder="Dr. Tanaka Hiroshi"
              autocomplete="off"
              required
              aria-describedby="name-hint"
            />
            <span class="hint" id="name-hint">
              Up to 256 characters. Titles, credentials and suffixes (Dr., PhD, Jr.) are dropped; a
              nickname in double quotes is kept; “Surname, Given” is read at its comma.
            </span>
          </div>
          <div class="row">
            <SpellingField id="spelling" value={values.spelling} />
            <button type="submit">Split the name</button>
          </div>
        </form>
      </section>
      {answer
        ? (
          <section class="panel" aria-labelledby="reading" data-answer="name">
            <h2 id="reading">The reading</h2>
            <NameFacts answer={answer.result} />
            <CostPanel billing={answer.result} balance={answer.balance} />
          </section>
        )
        : null}
    </ToolPage>,
  );
}

function NameFacts(props: { answer: NameAnswer }) {
  const { answer } = props;
  return (
    <dl class="facts tool-facts">
      <dt>Given name</dt>
      <dd class="tool-strong">{answer.given}</dd>
      <dt>Surname</dt>
      <dd class="tool-strong">{answer.surname}</dd>
      <dt>Nickname</dt>
      <dd>
        <Maybe value={answer.nickname} />
      </dd>
      <dt>Decided by</dt>
      <dd>{decidedBy(answer)}</dd>
      <dt>Confidence</dt>
      <dd>
        {answer.confidence === null
          ? <span class="muted">— (no model loaded)</span>
          : confidence(answer.confidence)}
      </dd>
      <dt>Order</dt>
      <dd>
        {answer.bothOrders
          ? "Ambiguous: either word could be the surname; shown in the model’s order"
          : "Clear"}
      </dd>
    </dl>
  );
}

function decidedBy(answer: NameAnswer): string {
  if (answer.source === "model") return "The name model";
  return answer.confidence === null
    ? "The rule (first word given name, the rest surname): no name model is loaded"
    : "The rule (first word given name, the rest surname): the model was not confident enough";
}

function renderList(
  c: Context<WebEnv>,
  ctx: DomainContext,
  state: ToolState<ListValues, ParsedBatch>,
) {
  const member = c.get("member");
  const { values, answer } = state;
  const names = answer ? namesOfList(values.names) : [];
  return c.html(
    <ToolPage title="Name parse" member={member} intro={<Intro ctx={ctx} />}>
      <Tabs active="list" />
      <section class="panel" aria-labelledby="name-list">
        <h2 id="name-list">A list of names</h2>
        <ToolMessage message={state.message} />
        <form method="post" action={NAME_LIST_PATH} class="stack">
          <CsrfField member={member} />
          <IdempotencyField value={state.formKey} />
          <div class="field">
            <label for="names">Names, one per line</label>
            <textarea
              id="names"
              name="names"
              rows={10}
              placeholder={LIST_PLACEHOLDER}
              autocomplete="off"
              spellcheck={false}
              wrap="off"
              aria-describedby="names-hint"
            >
              {/* The HTML parser drops one line break right after <textarea>: this one. */}
              {`\n${values.names}`}
            </textarea>
            <span class="hint" id="names-hint">
              Up to {BATCH_LIMIT} names; blank lines are skipped. Each answered name costs{" "}
              {points(ctx.prices.nameParse)}{" "}
              point{ctx.prices.nameParse === 1 ? "" : "s"}; a name that is too long or cannot be
              split is shown as such and is free.
            </span>
          </div>
          <div class="row">
            <SpellingField id="list-spelling" value={values.spelling} />
            <button type="submit">Split the names</button>
          </div>
        </form>
      </section>
      {answer
        ? (
          <BatchAnswer
            member={member}
            names={names}
            spelling={values.spelling}
            answerKey={answer.key}
            batch={answer.result}
            balance={answer.balance}
          />
        )
        : null}
    </ToolPage>,
  );
}

/** A row that got no answer for a reason other than its own input: asking again may answer it. */
function unanswered(row: BatchRow): boolean {
  return "error" in row && row.error.code !== "invalid_input" &&
    row.error.code !== "validation_error";
}

function BatchAnswer(
  props: {
    member: WebEnv["Variables"]["member"];
    names: string[];
    spelling: string;
    answerKey: string;
    batch: ParsedBatch;
    balance: Balance;
  },
) {
  const { batch, names } = props;
  const answered = batch.results.filter((row) => "data" in row).length;
  const refused = batch.results.length - answered;
  const open = batch.results.some(unanswered);
  const billing = {
    charged: batch.pointsCharged > 0,
    pointsCharged: batch.pointsCharged,
    replay: batch.replay,
  };
  // The same names under the same key: the batch verb replays them, free.
  const again = (format: "csv" | "html", label: string, subtle: boolean) => (
    <form method="post" action={NAME_LIST_PATH} class="tool-inline-form">
      <CsrfField member={props.member} />
      <IdempotencyField value={props.answerKey} />
      <input type="hidden" name="names" value={names.join("\n")} />
      <input type="hidden" name="spelling" value={props.spelling} />
      <input type="hidden" name="format" value={format} />
      <button type="submit" class={subtle ? "subtle" : ""}>{label}</button>
    </form>
  );
  return (
    <section class="panel" aria-labelledby="readings" data-answer="names">
      <div class="tool-answer-head">
        <h2 id="readings">The readings</h2>
        {open ? null : again("csv", "Download CSV", true)}
      </div>
      <p class="muted">
        {points(answered)} of {points(batch.results.length)}{" "}
        name{batch.results.length === 1 ? "" : "s"} answered
        {refused > 0 ? `, ${points(refused)} not (free)` : ""}.{" "}
        {open ? null : "The download is free: it repeats this answer, it is not stored."}
      </p>
      {open
        ? (
          <div class="notice error" role="alert">
            <p>
              Some names got no answer (shown below) and were not charged. Ask again for just those:
              the names already answered are not charged twice.
            </p>
            {again("html", "Answer the rest", false)}
          </div>
        )
        : null}
      <div class="table-wrap">
        <table class="tool-names">
          <thead>
            <tr>
              <th class="num">#</th>
              <th>Name as sent</th>
              <th>Given name</th>
              <th>Surname</th>
              <th>Nickname</th>
              <th>Decided by</th>
              <th class="num">Confidence</th>
            </tr>
          </thead>
          <tbody>
            {batch.results.map((row, i) => (
              <tr>
                <td class="num muted">{i + 1}</td>
                <td class="tool-sent">{names[i]}</td>
                {"data" in row
                  ? (
                    <>
                      <td class="tool-strong">{row.data.given}</td>
                      <td class="tool-strong">{row.data.surname}</td>
                      <td>
                        <Maybe value={row.data.nickname} />
                      </td>
                      <td>
                        {row.data.source === "model" ? "Model" : "Rule"}
                        {row.data.bothOrders ? <span class="badge warn">either order</span> : null}
                      </td>
                      <td class="num">
                        {confidence(row.data.confidence)}
                      </td>
                    </>
                  )
                  : (
                    <td colspan={5} class="tool-row-error">
                      <span class="badge bad">not answered</span> {row.error.message}
                    </td>
                  )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <CostPanel billing={billing} balance={props.balance} />
    </section>
  );
}
