import { ServiceError } from "../errors.ts";
import { newId } from "../shared/new_id.ts";
import type { DbContext } from "../context.ts";
import type { AuditActor } from "../audit/audit_event.ts";
import { recordAuditEvent } from "../audit/record_audit_event.ts";
import { normalizeMemberEmail } from "./member_email.ts";
import { generateOneTimePassword, hashPassword } from "./password.ts";

export interface CreatedMember {
  memberId: string;
  workspaceId: string;
  email: string;
  /** Shown once; the member must choose a new password when first signing in with it. */
  oneTimePassword: string;
}

/** Adds a member to a workspace (`admin user create`). */
export async function createMember(
  ctx: DbContext,
  input: { workspaceId: string; email: string; actor?: AuditActor },
): Promise<CreatedMember> {
  const { sql } = ctx.db;
  const email = normalizeMemberEmail(input.email);
  const oneTimePassword = generateOneTimePassword();
  const passwordHash = await hashPassword(oneTimePassword);
  const memberId = newId("mem");
  const [workspace] = await sql`SELECT 1 FROM workspaces WHERE id = ${input.workspaceId}`;
  if (!workspace) throw new ServiceError("not_found", `No workspace with id ${input.workspaceId}`);
  const rows = await sql`
    INSERT INTO members (id, workspace_id, email, password_hash)
    VALUES (${memberId}, ${input.workspaceId}, ${email}, ${passwordHash})
    ON CONFLICT (email) DO NOTHING RETURNING id`;
  if (rows.length === 0) {
    throw new ServiceError("validation_error", `A member with the email ${email} already exists`);
  }
  // The member's id only: their address is in `members` already, and the log outlives them.
  await recordAuditEvent(ctx, {
    action: "member.added",
    actor: input.actor,
    workspaceId: input.workspaceId,
    subjectId: memberId,
  });
  return { memberId, workspaceId: input.workspaceId, email, oneTimePassword };
}
