/**
 * What every tool page shares, so each tool is billed exactly like its API route and looks the
 * same: the hidden Idempotency-Key of a rendered form, the rate-limit gate (the API's budget of
 * the same operation), validation with the route's own zod schema, the refusals in the page's
 * words (with the right status), the "cost and balance" panel, and the page frame.
 *
 * Flow of one submitted form (`answerToolForm`): the operation's budget → validate → call the
 * same domain verb as the API with the form's key → render the answer, or the refusal with the
 * form kept filled. The key makes a double submit (or a reload of the answer) a free replay.
 */
import type { Context } from "hono";
import type { Child } from "hono/jsx";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "@hono/zod-openapi";
import type { RateLimitBudget } from "../../../domain/config/config.ts";
import type { DomainContext } from "../../../domain/context.ts";
import { type Balance } from "../../../domain/billing/balance.ts";
import { ServiceError } from "../../../domain/errors.ts";
import { readIdempotencyKey } from "../../../domain/idempotency/idempotency_key.ts";
import { statusOf } from "../../errors.ts";
import { validationMessage } from "../../validation_message.ts";
import { Notice, Page, points } from "../layout.tsx";
import { rateLimitWait } from "../rate_limit_gate.ts";
import type { WebEnv } from "../web_env.ts";
import { readWorkspaceBalance } from "../../../domain/billing/read_workspace_balance.ts";

export const TOOLS_PATH = "/app/tools";

export interface Message {
  kind: "error" | "info" | "success";
  body: Child;
}

/** The billing fields every answer carries (spec §2.2), as the verbs return them. */
export interface AnswerBilling {
  charged: boolean;
  pointsCharged: number;
  replay: boolean;
  balance: Balance | null;
}

/** What a tool page shows: the form's values and key, and an answer or a message. */
export interface ToolState<V, A> {
  values: V;
  /** The key the rendered form carries: a double submit of it replays, uncharged. */
  formKey: string;
  answer?: {
    result: A;
    /** The key the answer was given under (a download re-posts it: a free replay). */
    key: string;
    /** The balance after the call (the answer's own, or read when it carried none). */
    balance: Balance;
  };
  message?: Message;
}

export interface ToolSpec<V, A extends { balance: Balance | null }> {
  budget: RateLimitBudget;
  /** Form field → its label, so the verbs' and schemas' messages read in the page's words. */
  labels: Record<string, string>;
  /** Rewrites what a message says in the API's terms (e.g. "with mode company") for the page. */
  words?(message: string): string;
  read(form: FormFields): V;
  /** Validates (throwing `validation_error`) and calls the domain verb with the key. */
  run(values: V, call: { workspaceId: string; idempotencyKey: string }): Promise<A>;
  render(c: Context<WebEnv>, state: ToolState<V, A>): Response | Promise<Response>;
}

export type FormFields = Record<string, string | File | (string | File)[]>;

/** A fresh Idempotency-Key for a rendered form. Opaque: it never carries what is typed. */
export function newFormKey(): string {
  return `app-${crypto.randomUUID()}`;
}

/** The key the form was rendered with, or a fresh one when it is missing or was tampered with. */
export function formKeyOf(form: FormFields): string {
  const sent = textField(form, "idempotencyKey");
  try {
    return readIdempotencyKey(sent || undefined) ?? newFormKey();
  } catch {
    return newFormKey();
  }
}

/** The hidden field that carries the form's Idempotency-Key. */
export function IdempotencyField(props: { value: string }) {
  return <input type="hidden" name="idempotencyKey" value={props.value} />;
}

/** One text field of a posted form ("" when absent). */
export function textField(form: FormFields, name: string): string {
  const value = form[name];
  return typeof value === "string" ? value : "";
}

/** The route's own zod body schema decides what is valid; its first problem is the refusal. */
export function validated<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body);
  if (!result.success) throw new ServiceError("validation_error", validationMessage(result.error));
  return result.data;
}

/** The rate-limit gate in this tool's words; null when admitted. */
export async function rateLimitGate(
  c: Context<WebEnv>,
  ctx: DomainContext,
  budget: RateLimitBudget,
): Promise<Message | null> {
  const wait = await rateLimitWait(c, ctx, budget);
  if (wait === null) return null;
  return {
    kind: "error",
    body:
      `Too many requests for this tool from your workspace (the API and the app share the limit). Try again in ${wait}. Nothing was charged.`,
  };
}

/** A refusal in the page's words, its status, and whether the form needs a new key. */
export function refusalOf(
  error: ServiceError,
  labels: Record<string, string>,
): { status: ContentfulStatusCode; message: string; renewKey: boolean } {
  const status = statusOf(error.code);
  switch (error.code) {
    case "insufficient_credits": {
      const meta = error.meta as { required?: number; available?: number } | undefined;
      const needs = meta?.required !== undefined && meta.available !== undefined
        ? ` This needs ${points(meta.required)} points and ${points(meta.available)} are available.`
        : "";
      return {
        status,
        message: `Not enough points.${needs} Nothing was charged.`,
        renewKey: false,
      };
    }
    case "idempotency_conflict":
      // The back button brought back a form that was already answered for other values.
      return {
        status,
        message:
          "This form was already used for a different request. It has been renewed: submit it again.",
        renewKey: true,
      };
    case "idempotency_in_progress":
      return {
        status,
        message:
          "This request is still being answered. Wait a moment and submit again: it will not be charged twice.",
        renewKey: false,
      };
    default:
      return { status, message: inPageWords(error.message, labels), renewKey: false };
  }
}

/** `name must not be blank` → `Name must not be blank`: the API's field names as labelled here. */
export function inPageWords(message: string, labels: Record<string, string>): string {
  return message.replace(/^([A-Za-z]+)\b/, (word) => labels[word] ?? word);
}

/** The balance after a call: the answer's own, or read now when it could not carry one. */
export async function balanceAfter(
  ctx: DomainContext,
  workspaceId: string,
  balance: Balance | null,
): Promise<Balance> {
  return balance ?? await readWorkspaceBalance(ctx, { workspaceId: workspaceId });
}

/** Reads a posted tool form, runs it through the shared steps, and renders what came of it. */
export async function answerToolForm<V, A extends { balance: Balance | null }>(
  c: Context<WebEnv>,
  ctx: DomainContext,
  spec: ToolSpec<V, A>,
): Promise<Response> {
  const member = c.get("member");
  const form = await c.req.parseBody() as FormFields;
  const values = spec.read(form);
  const key = formKeyOf(form);

  const limited = await rateLimitGate(c, ctx, spec.budget);
  if (limited) return spec.render(c, { values, formKey: key, message: limited });

  try {
    const result = await spec.run(values, {
      workspaceId: member.workspaceId,
      idempotencyKey: key,
    });
    const balance = await balanceAfter(ctx, member.workspaceId, result.balance);
    // The answered form gets a new key: editing it and submitting again is a new request,
    // while a reload of this answer (the same key) stays a free replay.
    return spec.render(c, {
      values,
      formKey: newFormKey(),
      answer: { result, key, balance },
    });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    const refusal = refusalOf(error, spec.labels);
    for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
    c.status(refusal.status);
    return spec.render(c, {
      values,
      formKey: refusal.renewKey ? newFormKey() : key,
      message: { kind: "error", body: spec.words?.(refusal.message) ?? refusal.message },
    });
  }
}

/** The frame of a tool page: the app shell, the way back to all tools, and what the tool does. */
export function ToolPage(
  props: {
    title: string;
    member: WebEnv["Variables"]["member"];
    intro: Child;
    children: Child;
  },
) {
  return (
    <Page title={props.title} section="tools" member={props.member}>
      <p class="tool-back">
        <a href={TOOLS_PATH}>← All tools</a>
      </p>
      <p class="muted tool-intro">{props.intro}</p>
      {props.children}
    </Page>
  );
}

/** A message above a form. */
export function ToolMessage(props: { message?: Message }) {
  if (!props.message) return null;
  return <Notice kind={props.message.kind}>{props.message.body}</Notice>;
}

/**
 * What an answer cost and the balance after it: points charged, or free as a replay of an answer
 * already paid for, or nothing charged (with the tool's `why`).
 */
export function CostPanel(
  props: { billing: Omit<AnswerBilling, "balance">; balance: Balance; why?: Child },
) {
  const { billing, balance } = props;
  const cost = billing.replay
    ? {
      value: "Free",
      note: "A repeat of a request already answered and paid for (a replay).",
    }
    : billing.charged
    ? {
      value: `${points(billing.pointsCharged)} point${billing.pointsCharged === 1 ? "" : "s"}`,
      note: "Charged to your workspace.",
    }
    : { value: "Nothing", note: props.why ?? "Nothing was charged for this answer." };
  return (
    <div
      class="tool-cost"
      data-charged={String(billing.charged)}
      data-points-charged={String(billing.pointsCharged)}
      data-replay={String(billing.replay)}
      data-available={String(balance.available)}
    >
      <div class="tool-cost-item">
        <span class="label">Cost</span>
        <strong>{cost.value}</strong>
        <span class="muted">{cost.note}</span>
      </div>
      <div class="tool-cost-item">
        <span class="label">Balance after</span>
        <strong>{points(balance.available)} points available</strong>
        <span class="muted">
          {points(balance.reserved)} reserved · {points(balance.granted)} granted in all
        </span>
      </div>
    </div>
  );
}

/** A value of an answer, or a dash for none. */
export function Maybe(props: { value: string | null | undefined }) {
  return props.value ? <>{props.value}</> : <span class="muted">—</span>;
}

/** `2026-11-23T19:58:15.498Z` → `2026-11-23 19:58 UTC` (the server does not know the time zone). */
export function utcTime(iso: string): string {
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * A link to a page a source named (a profile, a source's page): only http(s) addresses become
 * links, anything else stays text, since these URLs come from outside services.
 */
export function OutsideLink(props: { href: string; children?: Child }) {
  if (!/^https?:\/\//i.test(props.href)) return <span class="tool-url">{props.href}</span>;
  return (
    <a href={props.href} rel="noreferrer noopener" class="tool-url">
      {props.children ?? props.href}
    </a>
  );
}
