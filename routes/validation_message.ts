import type { z } from "@hono/zod-openapi";

/**
 * A caller-facing message for the first problem zod found. Schemas that need exact wording (the
 * spec's batch messages) set it on the issue; otherwise the field path leads the message.
 * Submitted values are never quoted.
 */
export function validationMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid request";
  const path = issue.path.map(String).join(".");
  const field = String(issue.path[0] ?? "");
  if (!path || issue.message.startsWith(field) || issue.message.startsWith("Idempotency-Key")) {
    return issue.message;
  }
  if (issue.code === "invalid_type" && (issue as { input?: unknown }).input === undefined) {
    return `${path} is required`;
  }
  return `${path}: ${issue.message}`;
}
