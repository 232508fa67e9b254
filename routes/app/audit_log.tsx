/**
 * Settings → Audit log (`/app/settings/audit-log`): the workspace's administrative acts, newest
 * first, with who did them (a member by address, an API key by its name, the operator CLI), read
 * with the verb behind `GET /api/v1/audit-log` (`listAuditLog`). Ids and counts only, as the log
 * holds them. Paged by cursor; reading counts against the `account` budget, as the API does.
 */
import type { Hono } from "hono";
import type { DomainContext } from "../../domain/context.ts";
import type { AuditAction, AuditEntry } from "../../domain/audit/audit_event.ts";
import { listAuditLog } from "../../domain/audit/list_audit_log.ts";
import { When } from "./dates.tsx";
import { ErrorPage, Notice, Page } from "./layout.tsx";
import { memberPage } from "./member_pages.ts";
import { refusedByRateLimit } from "./lead_search/parts.tsx";
import type { WebEnv } from "./web_env.ts";

export const AUDIT_LOG_PATH = "/app/settings/audit-log";
const PAGE_ENTRIES = 50;

const ACTION_WORDS: Record<AuditAction, string> = {
  "api-key.created": "API key created",
  "api-key.revoked": "API key revoked",
  "points.granted": "Points granted",
  "member.added": "Member added",
  "member.removed": "Member removed",
  "member.password-reset": "Member's password reset",
  "do-not-contact.added": "Do-not-contact entry added",
  "do-not-contact.removed": "Do-not-contact entry removed",
  "webhook-endpoint.created": "Webhook endpoint registered",
  "webhook-endpoint.deleted": "Webhook endpoint deleted",
  "privacy.erased": "Person erased",
  "privacy.opt-out-requested": "Opt-out requested",
  "privacy.opt-out-confirmed": "Opt-out confirmed",
};

const ACTOR_WORDS: Record<AuditEntry["actor"]["kind"], string> = {
  "member": "Member",
  "api-key": "API key",
  "cli": "Operator (command line)",
  "public-page": "Public opt-out page",
  "service": "The service",
};

/** The entry's details in words: `points 500 · kind email`. */
function detailsText(entry: AuditEntry): string {
  return Object.entries(entry.details).map(([k, v]) => `${k} ${v}`).join(" · ");
}

export function mountAuditLog(web: Hono<WebEnv>, ctx: DomainContext): void {
  web.get("/settings/audit-log", memberPage(ctx), async (c) => {
    const member = c.get("member");
    const limited = await refusedByRateLimit(c, ctx, "account");
    if (limited) return c.html(<ErrorPage title="Slow down" message={limited} />);
    const cursorText = c.req.query("cursor") ?? "";
    const badCursor = cursorText !== "" && !/^\d{1,15}$/.test(cursorText);
    if (badCursor) c.status(400);
    const page = badCursor ? { entries: [], nextCursor: null } : await listAuditLog(ctx, {
      workspaceId: member.workspaceId,
      cursor: cursorText ? Number(cursorText) : undefined,
      limit: PAGE_ENTRIES,
    });
    return c.html(
      <Page title="Audit log" section="audit-log" member={member}>
        <p class="muted">
          Every administrative act on this workspace, newest first: API keys, points, members,
          do-not-contact entries and webhook endpoints, with who did it. Ids and counts only: the
          log never holds a key, a secret or a listed address.
        </p>
        {badCursor
          ? (
            <Notice kind="error">
              That page of the audit log does not exist: start again from the newest.
            </Notice>
          )
          : null}
        {!badCursor && page.entries.length === 0
          ? <p class="empty">{cursorText ? "No entries here." : "No entries yet."}</p>
          : null}
        {page.entries.length > 0
          ? (
            <div class="table-wrap">
              <table class="audit-log">
                <thead>
                  <tr>
                    <th>Time</th>
                    <th>What</th>
                    <th>Who</th>
                    <th>Details</th>
                  </tr>
                </thead>
                <tbody>
                  {page.entries.map((entry) => (
                    <tr data-action={entry.action} data-actor={entry.actor.kind}>
                      <td class="nowrap">
                        <When iso={entry.at} />
                      </td>
                      <td>
                        {ACTION_WORDS[entry.action] ?? entry.action}
                        {entry.subjectId
                          ? (
                            <>
                              {" "}
                              <span class="muted">· {entry.subjectId}</span>
                            </>
                          )
                          : null}
                      </td>
                      <td>
                        {ACTOR_WORDS[entry.actor.kind]}
                        {entry.actor.id
                          ? (
                            <>
                              {" "}
                              <span class="muted">· {entry.actor.id}</span>
                            </>
                          )
                          : null}
                      </td>
                      <td class="muted">{detailsText(entry)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
          : null}
        <nav class="lead-pager" aria-label="Audit log pages">
          {cursorText ? <a href={AUDIT_LOG_PATH}>← Newest</a> : null}
          {page.nextCursor !== null
            ? <a href={`${AUDIT_LOG_PATH}?cursor=${page.nextCursor}`}>Older →</a>
            : null}
        </nav>
      </Page>,
    );
  });
}
