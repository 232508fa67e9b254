import { ServiceError } from "../errors.ts";
import type { Sql } from "../stores/database.ts";
import { hashPassword, passwordProblem } from "./password.ts";

/**
 * A signed-in member sets their own password (required after a one-time password). Their other
 * sessions end; the current one stays.
 */
export async function choosePassword(
  sql: Sql,
  input: { memberId: string; currentSessionHash: string; password: string; confirmation: string },
): Promise<void> {
  const problem = passwordProblem(input.password);
  if (problem) throw new ServiceError("validation_error", problem);
  if (input.password !== input.confirmation) {
    throw new ServiceError("validation_error", "The two passwords are not the same");
  }
  const passwordHash = await hashPassword(input.password);
  await sql.begin(async (tx) => {
    await tx`UPDATE members SET password_hash = ${passwordHash}, password_is_temporary = false,
                                password_set_at = now()
              WHERE id = ${input.memberId}`;
    await tx`DELETE FROM sessions
              WHERE member_id = ${input.memberId} AND token_hash <> ${input.currentSessionHash}`;
  });
}
