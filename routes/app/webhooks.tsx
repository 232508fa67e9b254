/**
 * Settings → Webhooks (`/app/settings/webhooks`): register an endpoint for the events it wants
 * (its `whsec_` signing secret shown on the answer page, once: it never travels in a URL or a
 * redirect), list and delete endpoints, and the delivery log (status, attempts, the last answer)
 * with "send again" for a delivery that ended. Each action calls the API's own verb and counts
 * against the `account` budget, as `/api/v1/webhooks` does; the URL is checked by the same rule
 * (https, global addresses only).
 */
import type { Context, Hono } from "hono";
import type { Child } from "hono/jsx";
import type { DomainContext } from "../../domain/context.ts";
import { ServiceError } from "../../domain/errors.ts";
import { createWebhookEndpoint } from "../../domain/webhooks/create_webhook_endpoint.ts";
import { deleteWebhookEndpoint } from "../../domain/webhooks/delete_webhook_endpoint.ts";
import { listWebhookEndpoints } from "../../domain/webhooks/list_webhook_endpoints.ts";
import {
  listWebhookDeliveries,
  type WebhookDelivery,
} from "../../domain/webhooks/list_webhook_deliveries.ts";
import { redeliverWebhook } from "../../domain/webhooks/redeliver_webhook.ts";
import type { WebhookEndpoint } from "../../domain/webhooks/webhook_endpoint.ts";
import { WEBHOOK_EVENTS, type WebhookEvent } from "../../domain/webhooks/webhook_events.ts";
import { statusOf } from "../errors.ts";
import { Day, When } from "./dates.tsx";
import { inSentence } from "./form_message.ts";
import { CsrfField, Notice, Page } from "./layout.tsx";
import { refusedByRateLimit, runPath } from "./lead_search/parts.tsx";
import { jobPath } from "./bulk/bulk_parts.tsx";
import { memberPage } from "./member_pages.ts";
import type { WebEnv } from "./web_env.ts";

export const WEBHOOKS_PATH = "/app/settings/webhooks";
const LOG_SIZE = 50;

const EVENT_LABELS: Record<WebhookEvent, string> = {
  "lead_search.run.completed": "A lead-search run ends",
  "bulk.job.completed": "A bulk job ends",
};

const DELIVERY_LOOK: Record<WebhookDelivery["status"], { label: string; kind: string }> = {
  pending: { label: "Pending", kind: "live" },
  delivered: { label: "Delivered", kind: "ok" },
  failed: { label: "Failed", kind: "bad" },
};

type Message = { kind: "error" | "info" | "success"; body: Child };

interface FormValues {
  url: string;
  events: string[];
}

interface HooksPageState {
  values: FormValues;
  created?: WebhookEndpoint & { secret: string };
  message?: Message;
}

export function mountWebhooks(web: Hono<WebEnv>, ctx: DomainContext): void {
  const render = async (c: Context<WebEnv>, state: HooksPageState) => {
    const workspaceId = c.get("member").workspaceId;
    const [endpoints, deliveries] = await Promise.all([
      listWebhookEndpoints(ctx, { workspaceId }),
      listWebhookDeliveries(ctx, { workspaceId, limit: LOG_SIZE }),
    ]);
    return c.html(
      <HooksPage
        member={c.get("member")}
        endpoints={endpoints}
        deliveries={deliveries}
        state={state}
      />,
    );
  };
  const blank = (): FormValues => ({ url: "", events: [...WEBHOOK_EVENTS] });

  web.get("/settings/webhooks", memberPage(ctx), (c) => {
    // After a POST → 303 here: what happened, by kind only.
    const done = c.req.query("done");
    const message: Message | undefined = done === "deleted"
      ? { kind: "success", body: "Endpoint deleted: nothing more is sent to it." }
      : done === "resent"
      ? {
        kind: "success",
        body:
          "Queued to be sent again within seconds, under the same webhook-id (a receiver that kept it can drop it).",
      }
      : undefined;
    return render(c, { values: blank(), message });
  });

  web.post("/settings/webhooks", memberPage(ctx), async (c) => {
    const form = await c.req.parseBody({ all: true });
    const values = {
      url: typeof form.url === "string" ? form.url.trim() : "",
      events: [form.events ?? []].flat().filter((e): e is string => typeof e === "string"),
    };
    const limited = await refusedByRateLimit(c, ctx, "account");
    if (limited) return render(c, { values, message: { kind: "error", body: limited } });
    try {
      const created = await createWebhookEndpoint(ctx, {
        workspaceId: c.get("member").workspaceId,
        actor: { kind: "member", memberId: c.get("member").memberId },
        url: values.url,
        events: values.events,
      });
      // The answer page itself shows the secret: a redirect would have to carry it.
      return await render(c, { values: blank(), created });
    } catch (e) {
      if (!(e instanceof ServiceError) || e.code !== "validation_error") throw e;
      c.status(statusOf(e.code));
      const body = inSentence(e.message, { url: "The URL", events: "Events" });
      return await render(c, { values, message: { kind: "error", body } });
    }
  });

  /** A button's POST: the verb, then back to the page saying what happened, or why it did not. */
  const action = (
    path: string,
    verb: (c: Context<WebEnv>, workspaceId: string) => Promise<void>,
    done: string,
    refused: { status: 404 | 409; body: string },
  ) =>
    web.post(path, memberPage(ctx), async (c) => {
      const limited = await refusedByRateLimit(c, ctx, "account");
      if (limited) return render(c, { values: blank(), message: { kind: "error", body: limited } });
      try {
        await verb(c, c.get("member").workspaceId);
      } catch (e) {
        if (!(e instanceof ServiceError) || e.code !== "not_found") throw e;
        c.status(refused.status);
        return render(c, { values: blank(), message: { kind: "error", body: refused.body } });
      }
      return c.redirect(`${WEBHOOKS_PATH}?done=${done}`, 303);
    });

  action(
    "/settings/webhooks/:endpointId/delete",
    (c, workspaceId) =>
      deleteWebhookEndpoint(ctx, {
        workspaceId,
        endpointId: c.req.param("endpointId") ?? "",
        actor: { kind: "member", memberId: c.get("member").memberId },
      }),
    "deleted",
    { status: 404, body: "This workspace has no such endpoint (any more)." },
  );
  action(
    "/settings/webhooks/deliveries/:deliveryId/send-again",
    (c, workspaceId) =>
      redeliverWebhook(ctx, { workspaceId, deliveryId: c.req.param("deliveryId") ?? "" }),
    "resent",
    {
      status: 409,
      body:
        "That delivery cannot be sent again: it is still being tried, or its endpoint was deleted or disabled.",
    },
  );
}

function HooksPage(
  props: {
    member: WebEnv["Variables"]["member"];
    endpoints: WebhookEndpoint[];
    deliveries: WebhookDelivery[];
    state: HooksPageState;
  },
) {
  const { member, endpoints, deliveries, state } = props;
  const live = new Set(endpoints.filter((e) => e.disabledAt === null).map((e) => e.id));
  return (
    <Page title="Webhooks" section="webhooks" member={member}>
      <p class="muted keys-intro">
        The service calls your endpoint when a lead-search run or a bulk job ends, with a{" "}
        <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> POST of{" "}
        <code>{"{type, timestamp, data: {id, status}}"}</code>{" "}
        signed with the endpoint's secret. A delivery not answered with a 2xx is tried again for
        about three days; an endpoint answering 410 Gone is disabled.
      </p>
      {state.created ? <NewSecret created={state.created} /> : null}
      {state.message && state.message.kind !== "error"
        ? <Notice kind={state.message.kind}>{state.message.body}</Notice>
        : null}

      <section class="panel" aria-labelledby="add-endpoint">
        <h2 id="add-endpoint">Add an endpoint</h2>
        {state.message?.kind === "error"
          ? <Notice kind="error">{state.message.body}</Notice>
          : null}
        <form method="post" action={WEBHOOKS_PATH} class="stack">
          <CsrfField member={member} />
          <div class="field">
            <label for="hook-url">URL</label>
            <input
              type="url"
              id="hook-url"
              name="url"
              required
              maxlength={2048}
              value={state.values.url}
              placeholder="https://example.com/hooks/contact-data"
              autocomplete="off"
            />
            <span class="hint">https, reachable from the internet (not a private address).</span>
          </div>
          <fieldset class="lead-headcount">
            <legend class="label-text">Events</legend>
            <div class="lead-checks">
              {WEBHOOK_EVENTS.map((event) => (
                <label>
                  <input
                    type="checkbox"
                    name="events"
                    value={event}
                    checked={state.values.events.includes(event)}
                  />{" "}
                  {EVENT_LABELS[event]}
                </label>
              ))}
            </div>
            <span class="hint">
              Sent as <code>{WEBHOOK_EVENTS[0]}</code> and <code>{WEBHOOK_EVENTS[1]}</code>.
            </span>
          </fieldset>
          <div>
            <button type="submit">Add endpoint</button>
          </div>
        </form>
      </section>

      <section aria-labelledby="endpoint-list">
        <h2 id="endpoint-list">Endpoints</h2>
        {endpoints.length === 0
          ? <p class="empty">No endpoints yet. Add one above to be told when work ends.</p>
          : (
            <EndpointsTable
              endpoints={endpoints}
              member={member}
              fresh={state.created?.id}
            />
          )}
      </section>

      <section aria-labelledby="delivery-log">
        <div class="section-head">
          <h2 id="delivery-log">Deliveries</h2>
          {deliveries.length > 0
            ? <span class="muted">The latest {LOG_SIZE}, newest first</span>
            : null}
        </div>
        {deliveries.length === 0
          ? (
            <p class="empty">
              Nothing sent yet. A delivery appears here when a run or job ends.
            </p>
          )
          : <DeliveriesTable deliveries={deliveries} live={live} member={member} />}
      </section>
    </Page>
  );
}

function NewSecret(props: { created: WebhookEndpoint & { secret: string } }) {
  return (
    <section class="panel keys-new" aria-labelledby="new-secret-title">
      <h2 id="new-secret-title">Endpoint added: its signing secret</h2>
      <Notice kind="info">
        <strong>Copy it now: it will not be shown again.</strong>{" "}
        Your endpoint verifies each delivery with it (any Standard Webhooks library does). If it is
        lost, delete the endpoint and add it again.
      </Notice>
      <div class="secret">
        <input
          type="text"
          id="new-webhook-secret"
          readonly
          value={props.created.secret}
          aria-label="The endpoint's signing secret"
          autocomplete="off"
          spellcheck={false}
        />
        <button type="button" data-copy-target="new-webhook-secret">Copy</button>
      </div>
      <p class="muted keys-new-facts mono hooks-url">{props.created.url}</p>
    </section>
  );
}

function EndpointsTable(
  props: {
    endpoints: WebhookEndpoint[];
    member: WebEnv["Variables"]["member"];
    fresh?: string;
  },
) {
  return (
    <div class="table-wrap">
      <table class="card-rows hooks-endpoints">
        <thead>
          <tr>
            <th>URL</th>
            <th>Events</th>
            <th>Added</th>
            <th>Status</th>
            <th>
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.endpoints.map((endpoint) => (
            <tr
              data-endpoint-id={endpoint.id}
              class={endpoint.id === props.fresh ? "keys-fresh" : ""}
            >
              <td class="card-title mono hooks-url">{endpoint.url}</td>
              <td data-label="Events">
                <span class="mono hooks-url">{endpoint.events.join(", ")}</span>
              </td>
              <td class="nowrap" data-label="Added">
                <Day iso={endpoint.createdAt} />
              </td>
              <td class="card-corner">
                {endpoint.disabledAt
                  ? (
                    <span class="badge bad" title={endpoint.disabledWhy ?? undefined}>
                      Disabled
                    </span>
                  )
                  : <span class="badge ok">Active</span>}
              </td>
              <td class="row-action">
                <form
                  method="post"
                  action={`${WEBHOOKS_PATH}/${encodeURIComponent(endpoint.id)}/delete`}
                  data-confirm="Delete this endpoint? Nothing more is sent to it, and deliveries still being tried stop."
                >
                  <CsrfField member={props.member} />
                  <button type="submit" class="danger small">Delete</button>
                </form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The run or job a delivery was about, from its thin payload. */
function Subject(props: { payload: unknown }) {
  const id = (props.payload as { data?: { id?: unknown } } | null)?.data?.id;
  if (typeof id !== "string") return <span class="muted">—</span>;
  const href = id.startsWith("run_") ? runPath(id) : id.startsWith("job_") ? jobPath(id) : null;
  return href ? <a class="mono" href={href}>{id}</a> : <span class="mono">{id}</span>;
}

function lastAnswer(delivery: WebhookDelivery): string {
  if (delivery.lastStatusCode !== null) return `HTTP ${delivery.lastStatusCode}`;
  return delivery.lastError ?? "—";
}

function DeliveriesTable(
  props: {
    deliveries: WebhookDelivery[];
    live: Set<string>;
    member: WebEnv["Variables"]["member"];
  },
) {
  return (
    <div class="table-wrap">
      <table class="card-rows hooks-deliveries">
        <thead>
          <tr>
            <th>Event</th>
            <th>About</th>
            <th>Status</th>
            <th class="num">Attempts</th>
            <th>Last answer</th>
            <th>Created</th>
            <th>Next attempt</th>
            <th>
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.deliveries.map((delivery) => {
            const look = DELIVERY_LOOK[delivery.status];
            const again = delivery.status !== "pending" && props.live.has(delivery.endpointId);
            return (
              <tr data-delivery-id={delivery.id} data-status={delivery.status}>
                <td class="card-title">
                  <code>{delivery.eventType}</code>
                  <div class="muted mono hooks-url">{delivery.url}</div>
                </td>
                <td data-label="About">
                  <Subject payload={delivery.payload} />
                </td>
                <td class="card-corner">
                  <span class={`badge ${look.kind}`}>{look.label}</span>
                </td>
                <td class="num" data-label="Attempts">{delivery.attempts}</td>
                <td data-label="Last answer">{lastAnswer(delivery)}</td>
                <td class="nowrap" data-label="Created">
                  <When iso={delivery.createdAt} />
                </td>
                <td class="nowrap" data-label="Next attempt">
                  <When iso={delivery.nextAttemptAt} />
                </td>
                <td class="row-action">
                  {again
                    ? (
                      <form
                        method="post"
                        action={`${WEBHOOKS_PATH}/deliveries/${
                          encodeURIComponent(delivery.id)
                        }/send-again`}
                      >
                        <CsrfField member={props.member} />
                        <button type="submit" class="subtle small">Send again</button>
                      </form>
                    )
                    : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
