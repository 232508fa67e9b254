/**
 * `/app/do-not-contact`: the workspace's do-not-contact list (the same verbs as `admin dnc`):
 * add an address or a domain, list them, remove one after a confirmation. With script, the
 * list's remove form asks in a dialog (`data-confirm`); without, the same form carries a
 * `<noscript>` field and is answered with a confirmation page. Entries travel only in form
 * bodies, never in a URL (they are addresses of people).
 */
import type { Context, Hono } from "hono";
import type { DomainContext } from "../../domain/context.ts";
import { addDoNotContact } from "../../domain/do_not_contact/add_do_not_contact.ts";
import { removeDoNotContact } from "../../domain/do_not_contact/remove_do_not_contact.ts";
import {
  type DoNotContactListing,
  listDoNotContact,
} from "../../domain/do_not_contact/list_do_not_contact.ts";
import type {
  DoNotContactKind,
  DoNotContactTarget,
} from "../../domain/do_not_contact/do_not_contact_entry.ts";
import { ServiceError } from "../../domain/errors.ts";
import { statusOf } from "../errors.ts";
import { CsrfField, Notice, Page } from "./layout.tsx";
import { memberPage } from "./member_pages.ts";
import type { WebEnv } from "./web_env.ts";
import { Day } from "./dates.tsx";
import { inSentence } from "./form_message.ts";
import { ENRICH_PATH } from "./tools/enrich_tool.tsx";

const DNC_PATH = "/app/do-not-contact";
const REMOVE_PATH = `${DNC_PATH}/remove`;
const LABELS = { email: "An email address", domain: "A domain" };

interface DncState {
  entry: string;
  message?: { kind: "error" | "success" | "info"; text: string };
}

/** What was typed: an address when it has an @, otherwise a domain. */
function targetOf(entry: string): DoNotContactTarget {
  return entry.includes("@") ? { email: entry } : { domain: entry };
}

function kindWord(kind: DoNotContactKind): string {
  return kind === "email" ? "Address" : "Domain";
}

export function mountDoNotContact(web: Hono<WebEnv>, ctx: DomainContext): void {
  const render = async (c: Context<WebEnv>, state: DncState) => {
    const member = c.get("member");
    const entries = await listDoNotContact(ctx, { workspaceId: member.workspaceId });
    return c.html(<DncPage c={c} entries={entries} state={state} />);
  };

  web.get("/do-not-contact", memberPage(ctx), (c) => render(c, { entry: "" }));

  web.post("/do-not-contact", memberPage(ctx), async (c) => {
    const form = await c.req.parseBody();
    const entry = typeof form.entry === "string" ? form.entry : "";
    try {
      if (!entry.trim()) {
        throw new ServiceError("validation_error", "Enter an address or a domain to add.");
      }
      const added = await addDoNotContact(ctx, {
        workspaceId: c.get("member").workspaceId,
        actor: { kind: "member", memberId: c.get("member").memberId },
        ...targetOf(entry),
      });
      // Rendered, not redirected: the entry is shown without travelling in a URL. Adding again
      // (a reload) changes nothing.
      return await render(c, {
        entry: "",
        message: added.created
          ? { kind: "success", text: `Added ${added.value}.` }
          : { kind: "info", text: `${added.value} was already on the list.` },
      });
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== "validation_error") throw error;
      c.status(statusOf(error.code));
      return await render(c, {
        entry,
        message: { kind: "error", text: inSentence(error.message, LABELS) },
      });
    }
  });

  web.post("/do-not-contact/remove", memberPage(ctx), async (c) => {
    const member = c.get("member");
    const form = await c.req.parseBody();
    const kind = form.kind === "email" ? "email" : form.kind === "domain" ? "domain" : null;
    const value = typeof form.value === "string" ? form.value : "";
    if (!kind || !value) {
      c.status(400);
      return await render(c, {
        entry: "",
        message: { kind: "error", text: "Choose an entry of the list to remove." },
      });
    }
    // Sent only by a browser without script, which could not ask: ask on a page first.
    if (form.noscript) {
      return c.html(
        <Page title="Remove from the do-not-contact list" section="do-not-contact" member={member}>
          <p class="tool-back">
            <a href={DNC_PATH}>← Do-not-contact</a>
          </p>
          <section class="panel">
            <p>
              Remove the {kind === "email" ? "address" : "domain"}{" "}
              <strong class="mono dnc-value">{value}</strong> from the list?{" "}
              {kind === "domain"
                ? "Addresses at it and its subdomains can be enriched again."
                : "It can be enriched again."}
            </p>
            <form method="post" action={REMOVE_PATH} class="confirm-actions">
              <CsrfField member={member} />
              <input type="hidden" name="kind" value={kind} />
              <input type="hidden" name="value" value={value} />
              <button type="submit" class="danger">Remove</button>
              <a class="button subtle" href={DNC_PATH}>Keep it</a>
            </form>
          </section>
        </Page>,
      );
    }
    try {
      const removed = await removeDoNotContact(ctx, {
        workspaceId: member.workspaceId,
        actor: { kind: "member", memberId: member.memberId },
        ...(kind === "email" ? { email: value } : { domain: value }),
      });
      return await render(c, {
        entry: "",
        message: removed.removed
          ? { kind: "success", text: `Removed ${removed.value}.` }
          : { kind: "info", text: `${removed.value} was not on the list.` },
      });
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== "validation_error") throw error;
      c.status(statusOf(error.code));
      return await render(c, {
        entry: "",
        message: { kind: "error", text: inSentence(error.message, LABELS) },
      });
    }
  });
}

function DncPage(props: { c: Context<WebEnv>; entries: DoNotContactListing[]; state: DncState }) {
  const member = props.c.get("member");
  const { entries, state } = props;
  const domains = entries.filter((entry) => entry.kind === "domain").length;
  return (
    <Page title="Do-not-contact" section="do-not-contact" member={member}>
      <p class="muted dnc-intro">
        Addresses and domains this workspace must not reach. Enriching a listed address (by the API
        or the <a href={ENRICH_PATH}>tool</a>) is refused with{" "}
        <code>do-not-contact</code>, asks no source and costs nothing.
      </p>

      <section class="panel" aria-labelledby="dnc-add">
        <h2 id="dnc-add">Add an address or a domain</h2>
        {state.message ? <Notice kind={state.message.kind}>{state.message.text}</Notice> : null}
        <form method="post" action={DNC_PATH} class="stack">
          <CsrfField member={member} />
          <div class="row dnc-row">
            <div class="field">
              <label for="dnc-entry">Address or domain</label>
              <input
                type="text"
                id="dnc-entry"
                name="entry"
                required
                maxlength={320}
                value={state.entry}
                placeholder="jane@acme.com or acme.com"
                autocomplete="off"
                spellcheck={false}
              />
            </div>
            <button type="submit">Add to the list</button>
          </div>
          <p class="hint muted dnc-hint">
            A domain covers its subdomains too: <span class="mono">acme.com</span> also refuses{" "}
            <span class="mono">jane@mail.acme.com</span>. An address also covers its{" "}
            <span class="mono">+tag</span> variants (<span class="mono">jane+news@acme.com</span>).
          </p>
        </form>
      </section>

      <section aria-labelledby="dnc-list">
        <div class="section-head">
          <h2 id="dnc-list">On the list</h2>
          {entries.length > 0
            ? (
              <span class="muted">
                {count(domains, "domain")}, {count(entries.length - domains, "address")}
              </span>
            )
            : null}
        </div>
        {entries.length === 0
          ? (
            <p class="empty">
              The list is empty: every address can be enriched. Add one above to stop that.
            </p>
          )
          : (
            <div class="table-wrap">
              <table class="card-rows dnc-table">
                <thead>
                  <tr>
                    <th>Kind</th>
                    <th>Address or domain</th>
                    <th>Added</th>
                    <th>
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {entries.map((entry) => (
                    <tr data-kind={entry.kind}>
                      <td class="card-corner">
                        <span class="badge">{kindWord(entry.kind)}</span>
                      </td>
                      <td class="dnc-value card-title">
                        <span class="mono">{entry.value}</span>
                        {entry.kind === "domain"
                          ? <span class="muted dnc-sub">and its subdomains</span>
                          : null}
                      </td>
                      <td class="nowrap" data-label="Added">
                        <Day iso={entry.createdAt} />
                      </td>
                      <td class="row-action">
                        <form
                          method="post"
                          action={REMOVE_PATH}
                          data-confirm={`Remove ${entry.value} from the do-not-contact list?`}
                        >
                          <CsrfField member={member} />
                          <input type="hidden" name="kind" value={entry.kind} />
                          <input type="hidden" name="value" value={entry.value} />
                          <noscript>
                            <input type="hidden" name="noscript" value="1" />
                          </noscript>
                          <button type="submit" class="danger small">Remove</button>
                        </form>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
      </section>
    </Page>
  );
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : word.endsWith("s") ? "es" : "s"}`;
}
