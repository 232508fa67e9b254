import { ServiceError } from "../errors.ts";
import type { DbContext } from "../context.ts";
import type { AuditActor } from "../audit/audit_event.ts";
import { recordAuditEventIn } from "../audit/record_audit_event.ts";
import { normalizeMemberEmail } from "./member_email.ts";

/**
 * Takes a member out of their workspace (`admin user remove`): the member and every session they
 * had are deleted (sessions go with the member), so they are signed out at once and cannot sign in
 * again. The audit entry names the member by id only, in the same transaction as the removal.
 */
export async function removeMember(
  ctx: DbContext,
  input: { email: string; actor?: AuditActor },
): Promise<{ memberId: string; workspaceId: string; removed: true }> {
  const email = normalizeMemberEmail(input.email);
  return await ctx.db.sql.begin(async (tx) => {
    const [member] = await tx<{ id: string; workspace_id: string }[]>`
      DELETE FROM members WHERE email = ${email} RETURNING id, workspace_id`;
    if (!member) throw new ServiceError("not_found", `No member with the email ${email}`);
    await recordAuditEventIn({ tx }, {
      action: "member.removed",
      actor: input.actor,
      workspaceId: member.workspace_id,
      subjectId: member.id,
    });
    return { memberId: member.id, workspaceId: member.workspace_id, removed: true as const };
  });
}
