/**
 * The public opt-out page's first step: a person gives an address, and the service mails a
 * confirmation link to it (`MAIL_SUBMISSION_URL`), so only the mailbox's owner can object for it.
 * The answer is the same whatever the service holds about the address: `sent` never says that
 * anything is held, and nothing is looked up to answer it.
 *
 * Counted against the `opt_out` budget per client address (`rate-limited`), and per address asked
 * about (keyed by its fingerprint, never the address): past that, nothing more is sent to the
 * address within the window, and the page answers as if it were, so the limit tells nothing
 * either. Without a submission server (or `PUBLIC_URL`), `no-mail`: the page says how to write to
 * the operator. The audit log records that a request was made, never the address.
 */
import type { DomainContext } from "../context.ts";
import { recordAuditEvent } from "../audit/record_audit_event.ts";
import { normalizeEmail } from "../do_not_contact/do_not_contact_entry.ts";

export type OptOutRequestOutcome =
  | { kind: "sent" }
  | { kind: "invalid" }
  | { kind: "no-mail" }
  | { kind: "rate-limited"; retryAfterSeconds: number }
  /** The submission server could not take the message: try again later. */
  | { kind: "unavailable" };

export const CONFIRM_PATH = "/privacy/opt-out/confirm";

export async function requestOptOut(
  ctx:
    & Pick<
      DomainContext,
      "db" | "clock" | "logger" | "rateLimiter" | "fingerprint" | "optOutLinks" | "settings"
    >
    & { mailSender?: DomainContext["mailSender"] },
  input: { email: string; clientAddress: string },
): Promise<OptOutRequestOutcome> {
  const email = normalizeEmail(input.email.slice(0, 400));
  if (!email) return { kind: "invalid" };
  const publicUrl = ctx.settings.privacy?.publicUrl ?? null;
  if (!ctx.mailSender || !publicUrl) return { kind: "no-mail" };
  const byClient = await ctx.rateLimiter("opt_out", `client:${input.clientAddress}`);
  if (!byClient.allowed) return { kind: "rate-limited", retryAfterSeconds: byClient.resetSeconds };
  const byAddress = await ctx.rateLimiter(
    "opt_out",
    `address:${ctx.fingerprint("opt-out-address", email)}`,
  );
  if (!byAddress.allowed) return { kind: "sent" };

  const hours = ctx.settings.privacy?.linkHours ?? 24;
  const token = await ctx.optOutLinks.issue({
    email,
    expiresAt: new Date(ctx.clock.now() + hours * 3_600_000),
  });
  const link = `${publicUrl}${CONFIRM_PATH}?token=${encodeURIComponent(token)}`;
  const sent = await ctx.mailSender.send({
    to: email,
    subject: "Confirm: remove your address from our contact data",
    text: [
      "Someone (we hope you) asked us to stop holding or giving out contact data about the",
      "owner of this address.",
      "",
      "To confirm, open this link and press the button on the page:",
      "",
      link,
      "",
      `The link works once, for ${hours} hours. If you did not ask, ignore this message:`,
      "nothing changes without the link.",
    ].join("\n"),
  });
  if (sent.kind === "unavailable") {
    ctx.logger.warn("opt-out confirmation could not be sent", { cause: sent.message });
    return { kind: "unavailable" };
  }
  await recordAuditEvent(ctx, {
    action: "privacy.opt-out-requested",
    actor: { kind: "public-page" },
    workspaceId: null,
  });
  return { kind: "sent" };
}
