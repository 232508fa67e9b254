/**
 * Settings → API keys (`/app/settings/api-keys`): create a key (name, optional expiry), shown
 * once on the answer page and never again (only its hash is kept, and it never travels in a URL
 * or a redirect); the create form carries a one-time key (as the tools' forms do), so the same
 * form sent again (a reload of the answer page) creates no second key and shows none; list the workspace's keys; revoke one after a confirmation. With script, the
 * list's revoke form asks in a dialog (`data-confirm`); without, the same form carries a
 * `<noscript>` field and is answered with a confirmation page (`GET …/:keyId/revoke`).
 */
import type { Context, Hono } from "hono";
import type { DomainContext } from "../../domain/context.ts";
import { createApiKeyOnce, type CreatedApiKey } from "../../domain/auth/create_api_key.ts";
import { type ApiKeyListing, listApiKeys } from "../../domain/auth/list_api_keys.ts";
import { revokeApiKey } from "../../domain/auth/revoke_api_key.ts";
import { ServiceError } from "../../domain/errors.ts";
import { statusOf } from "../errors.ts";
import { CsrfField, Notice, Page } from "./layout.tsx";
import { memberPage } from "./member_pages.ts";
import type { WebEnv } from "./web_env.ts";
import { Day, dayStart, When } from "./dates.tsx";
import { inSentence } from "./form_message.ts";
import { formKeyOf, IdempotencyField, newFormKey } from "./tools/tool_call.tsx";

export const API_KEYS_PATH = "/app/settings/api-keys";
const revokePath = (keyId: string) => `${API_KEYS_PATH}/${encodeURIComponent(keyId)}/revoke`;
const LABELS = { name: "Name", expiry: "Expiry date" };
const DAY_MS = 86_400_000;

interface FormValues {
  name: string;
  expiresOn: string;
}

interface KeysPageState {
  values: FormValues;
  /** The create form's one-time key: the same form sent twice makes one key. */
  formKey: string;
  created?: CreatedApiKey;
  /** The form was sent before: the id of the key it made (whose secret is not shown again). */
  alreadyCreated?: string;
  error?: string;
  revoked?: ApiKeyListing;
}

export function mountApiKeys(web: Hono<WebEnv>, ctx: DomainContext): void {
  const keysOf = (workspaceId: string) => listApiKeys(ctx, { workspaceId, now: ctx.clock.now() });

  const render = async (c: Context<WebEnv>, state: KeysPageState) => {
    const keys = await keysOf(c.get("member").workspaceId);
    return c.html(<KeysPage c={c} ctx={ctx} keys={keys} state={state} />);
  };

  web.get("/settings/api-keys", memberPage(ctx), async (c) => {
    const keys = await keysOf(c.get("member").workspaceId);
    // After a revocation (POST → 303 here): the key's id only, never the key.
    const revokedId = c.req.query("revoked");
    const revoked = keys.find((key) => key.keyId === revokedId && key.status === "revoked");
    return c.html(
      <KeysPage
        c={c}
        ctx={ctx}
        keys={keys}
        state={{ values: blank(), formKey: newFormKey(), revoked }}
      />,
    );
  });

  web.post("/settings/api-keys", memberPage(ctx), async (c) => {
    const form = await c.req.parseBody();
    const values = {
      name: typeof form.name === "string" ? form.name : "",
      expiresOn: typeof form.expiresOn === "string" ? form.expiresOn.trim() : "",
    };
    const formKey = formKeyOf(form);
    try {
      const outcome = await createApiKeyOnce(ctx, {
        formKey,
        workspaceId: c.get("member").workspaceId,
        actor: { kind: "member", memberId: c.get("member").memberId },
        name: values.name,
        // The key stops working as the chosen day begins (UTC); "never" is an empty date. A day
        // the calendar lacks is an invalid Date, which the verb refuses as "must be a date".
        expiresAt: values.expiresOn ? dayStart(values.expiresOn) : null,
        now: ctx.clock.now(),
      });
      // The answer page itself shows the key: a redirect would have to carry it. Its form is a
      // new one; a reload of this page sends the used one again and is told so instead.
      return await render(c, {
        values: blank(),
        formKey: newFormKey(),
        ...("created" in outcome
          ? { created: outcome.created }
          : { alreadyCreated: outcome.alreadyCreated.keyId }),
      });
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== "validation_error") throw error;
      c.status(statusOf(error.code));
      return await render(c, { values, formKey, error: inSentence(error.message, LABELS) });
    }
  });

  web.get("/settings/api-keys/:keyId/revoke", memberPage(ctx), async (c) => {
    const member = c.get("member");
    const keys = await keysOf(member.workspaceId);
    const key = keys.find((one) => one.keyId === c.req.param("keyId"));
    if (!key) return keyNotFound(c);
    return c.html(
      <Page title="Revoke an API key" section="keys" member={member}>
        <p class="tool-back">
          <a href={API_KEYS_PATH}>← API keys</a>
        </p>
        <section class="panel keys-confirm">
          <dl class="facts">
            <dt>Name</dt>
            <dd>{key.name ?? <span class="muted">Unnamed</span>}</dd>
            <dt>Key</dt>
            <dd class="mono">{key.displayPrefix}</dd>
            <dt>Created</dt>
            <dd>
              <When iso={key.createdAt} />
            </dd>
            <dt>Last used</dt>
            <dd>
              <When iso={key.lastUsedAt} empty="Never" />
            </dd>
          </dl>
          {key.status === "revoked"
            ? (
              <Notice kind="info">
                This key was already revoked on <When iso={key.revokedAt} />.
              </Notice>
            )
            : (
              <form method="post" action={revokePath(key.keyId)} class="keys-confirm-form">
                <CsrfField member={member} />
                <p>
                  Programs that use this key are refused with <code>401 Invalid API key</code>{" "}
                  within a few seconds. This cannot be undone; create a new key to replace it.
                </p>
                <div class="confirm-actions">
                  <button type="submit" class="danger">Revoke this key</button>
                  <a class="button subtle" href={API_KEYS_PATH}>Keep it</a>
                </div>
              </form>
            )}
        </section>
      </Page>,
    );
  });

  web.post("/settings/api-keys/:keyId/revoke", memberPage(ctx), async (c) => {
    const keyId = c.req.param("keyId");
    const form = await c.req.parseBody();
    // Sent only by a browser without script, which could not ask: ask on a page first.
    if (form.noscript) return c.redirect(revokePath(keyId), 303);
    try {
      await revokeApiKey(ctx, {
        keyId,
        workspaceId: c.get("member").workspaceId,
        actor: { kind: "member", memberId: c.get("member").memberId },
      });
    } catch (error) {
      if (error instanceof ServiceError && error.code === "not_found") return keyNotFound(c);
      throw error;
    }
    return c.redirect(`${API_KEYS_PATH}?revoked=${encodeURIComponent(keyId)}`, 303);
  });
}

function blank(): FormValues {
  return { name: "", expiresOn: "" };
}

function keyNotFound(c: Context<WebEnv>) {
  c.status(404);
  return c.html(
    <Page title="API key not found" section="keys" member={c.get("member")}>
      <Notice kind="error">This workspace has no API key with that id.</Notice>
      <p>
        <a href={API_KEYS_PATH}>Back to API keys</a>
      </p>
    </Page>,
  );
}

const STATUS_LOOK = {
  active: { label: "Active", kind: "ok" },
  expired: { label: "Expired", kind: "warn" },
  revoked: { label: "Revoked", kind: "bad" },
} as const;

function KeysPage(
  props: {
    c: Context<WebEnv>;
    ctx: DomainContext;
    keys: ApiKeyListing[];
    state: KeysPageState;
  },
) {
  const member = props.c.get("member");
  const { state, keys } = props;
  const today = Math.floor(props.ctx.clock.now() / DAY_MS) * DAY_MS;
  const tomorrow = new Date(today + DAY_MS).toISOString().slice(0, 10);
  return (
    <Page title="API keys" section="keys" member={member}>
      <p class="muted keys-intro">
        Programs call the API with a key in the header{" "}
        <code>Authorization: Bearer svc_sk_…</code>. Every key acts for this workspace and spends
        its points. Only a fingerprint of each key is kept, so a key is shown once, when it is
        created.
      </p>

      {state.created ? <NewKey created={state.created} /> : null}
      {state.alreadyCreated
        ? (
          <Notice kind="info">
            This form was already sent: it created the key highlighted below, which was shown then.
            A key is shown only once; if that one was not copied, revoke it and create another.
          </Notice>
        )
        : null}
      {state.revoked
        ? (
          <Notice kind="success">
            Revoked {state.revoked.name ? <strong>{state.revoked.name}</strong> : "the key"}{" "}
            (<span class="mono">{state.revoked.displayPrefix}</span>): programs using it are refused
            within a few seconds.
          </Notice>
        )
        : null}

      <section class="panel" aria-labelledby="create-key">
        <h2 id="create-key">Create a key</h2>
        {state.error ? <Notice kind="error">{state.error}</Notice> : null}
        <form method="post" action={API_KEYS_PATH} class="stack">
          <CsrfField member={member} />
          <IdempotencyField value={state.formKey} />
          <div class="row keys-fields">
            <div class="field">
              <label for="key-name">Name</label>
              <input
                type="text"
                id="key-name"
                name="name"
                required
                maxlength={100}
                value={state.values.name}
                placeholder="e.g. CRM sync"
                autocomplete="off"
              />
              <span class="hint">Where the key is used, so you know which one to revoke.</span>
            </div>
            <div class="field keys-expiry">
              <label for="key-expires">Expires on (optional)</label>
              <input
                type="date"
                id="key-expires"
                name="expiresOn"
                min={tomorrow}
                value={state.values.expiresOn}
              />
              <span class="hint">
                Empty: never expires. Otherwise it stops working at 00:00 UTC that day.
              </span>
            </div>
          </div>
          <div>
            <button type="submit">Create key</button>
          </div>
        </form>
      </section>

      <section aria-labelledby="key-list">
        <h2 id="key-list">Keys of this workspace</h2>
        {keys.length === 0
          ? (
            <p class="empty">
              This workspace has no API keys yet. Create one above to call the API.
            </p>
          )
          : (
            <KeysTable
              keys={keys}
              member={member}
              created={state.created?.keyId ?? state.alreadyCreated}
            />
          )}
      </section>
    </Page>
  );
}

function NewKey(props: { created: CreatedApiKey }) {
  const { created } = props;
  return (
    <section class="panel keys-new" aria-labelledby="new-key-title">
      <h2 id="new-key-title">
        Your new key{created.name ? <>: {created.name}</> : null}
      </h2>
      <Notice kind="info">
        <strong>Copy it now: it will not be shown again.</strong>{" "}
        Only a fingerprint of it is kept. If it is lost, revoke it and create another.
      </Notice>
      <div class="secret">
        <input
          type="text"
          id="new-api-key"
          readonly
          value={created.apiKey}
          aria-label="The new API key"
          autocomplete="off"
          spellcheck={false}
        />
        <button type="button" data-copy-target="new-api-key">Copy</button>
      </div>
      <p class="muted keys-new-facts">
        {created.expiresAt
          ? (
            <>
              Expires <When iso={created.expiresAt} />.
            </>
          )
          : "Never expires."} Try it: <code>GET /api/v1/points</code>{" "}
        with the key answers this workspace's balance.
      </p>
    </section>
  );
}

function KeysTable(
  props: { keys: ApiKeyListing[]; member: WebEnv["Variables"]["member"]; created?: string },
) {
  return (
    <div class="table-wrap">
      <table class="card-rows keys-table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Key</th>
            <th>Created</th>
            <th>Last used</th>
            <th>Expires</th>
            <th>Status</th>
            <th>
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.keys.map((key) => {
            const look = STATUS_LOOK[key.status];
            return (
              <tr data-key-id={key.keyId} class={key.keyId === props.created ? "keys-fresh" : ""}>
                <td class="card-title">
                  {key.name ?? <span class="muted">Unnamed</span>}
                </td>
                <td class="mono nowrap" data-label="Key">{key.displayPrefix}</td>
                <td class="nowrap" data-label="Created">
                  <Day iso={key.createdAt} />
                </td>
                <td class="nowrap" data-label="Last used">
                  <When iso={key.lastUsedAt} empty="Never" />
                </td>
                <td class="nowrap" data-label="Expires">
                  <Day iso={key.expiresAt} empty="Never" />
                </td>
                <td class="card-corner">
                  <span class={`badge ${look.kind}`} data-status={key.status}>{look.label}</span>
                </td>
                <td class="row-action">
                  {key.status === "revoked" ? null : (
                    <form
                      method="post"
                      action={revokePath(key.keyId)}
                      data-confirm={`Revoke ${
                        key.name ? `“${key.name}”` : key.displayPrefix
                      }? Programs using it will be refused. This cannot be undone.`}
                    >
                      <CsrfField member={props.member} />
                      <noscript>
                        <input type="hidden" name="noscript" value="1" />
                      </noscript>
                      <button type="submit" class="danger small">Revoke</button>
                    </form>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
