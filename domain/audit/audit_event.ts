/**
 * The audit log's vocabulary (migration 024): who acted, and the acts it records. An entry names
 * what changed by ids and counts only: a key's id (never the key), an endpoint's id (never its
 * URL's secret or signing secret), a do-not-contact entry's kind (never its value: the list is the
 * workspace's own record of it), an erasure's counts (never the erased values).
 */

/** Who did it: a member in the web app, an API key, the operator CLI, the public opt-out page. */
export type AuditActor =
  | { kind: "member"; memberId: string }
  | { kind: "api-key"; keyId: string }
  | { kind: "cli" }
  | { kind: "public-page" }
  /** The service itself (a verb called without an actor, as tests and scripts do). */
  | { kind: "service" };

export const AUDIT_ACTIONS = [
  "api-key.created",
  "api-key.revoked",
  "points.granted",
  "member.added",
  "member.removed",
  "member.password-reset",
  "do-not-contact.added",
  "do-not-contact.removed",
  "webhook-endpoint.created",
  "webhook-endpoint.deleted",
  "privacy.erased",
  "privacy.opt-out-requested",
  "privacy.opt-out-confirmed",
] as const;

export type AuditAction = typeof AUDIT_ACTIONS[number];

/** One act as it is recorded. `details` holds ids, kinds and counts, never a secret or a person's value. */
export interface AuditEvent {
  action: AuditAction;
  actor?: AuditActor;
  /** Null for a service-wide act (an erasure, an opt-out). */
  workspaceId: string | null;
  /** The id of what the act changed (a key, member, endpoint, erasure), when it has one. */
  subjectId?: string | null;
  details?: Record<string, string | number | boolean | null>;
}

/** An entry as it is read back. */
export interface AuditEntry {
  id: number;
  /** ISO 8601. */
  at: string;
  workspaceId: string | null;
  actor: { kind: AuditActor["kind"]; id: string | null };
  action: AuditAction;
  subjectId: string | null;
  details: Record<string, string | number | boolean | null>;
}

export const SERVICE_ACTOR: AuditActor = { kind: "service" };

export function actorId(actor: AuditActor): string | null {
  return actor.kind === "member" ? actor.memberId : actor.kind === "api-key" ? actor.keyId : null;
}
