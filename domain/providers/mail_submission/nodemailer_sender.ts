/**
 * The submission adapter: nodemailer's SMTP transport (the maintained Node mailer, which runs
 * under Deno's Node compatibility) to `MAIL_SUBMISSION_URL`: STARTTLS required on `smtp://`
 * (`requireTLS`: a server that does not offer it is refused rather than sent the password in
 * clear), TLS from the first byte on `smtps://`, the certificate verified (against
 * `MAIL_SUBMISSION_CA_FILE` as well when set), AUTH with the URL's credentials. One connection
 * per message: a message is sent only when a person asks for one. The engine's own SMTP client
 * (domain/providers/smtp/) stops after RCPT by design and sends no mail.
 */
import nodemailer from "nodemailer";
import type { MailSubmissionConfig } from "../../config/config.ts";
import type { MailSender, OutgoingMessage, SubmissionAnswer } from "./port.ts";

/** The part of nodemailer's transport this adapter uses (the package ships no types). */
interface Transport {
  sendMail(message: { from: string; to: string; subject: string; text: string }): Promise<
    { accepted: unknown[]; rejected: unknown[] }
  >;
  close(): void;
}

export function createNodemailerSender(
  config: MailSubmissionConfig,
  options: { from: string; timeoutMs: number },
): MailSender {
  let ca: Promise<string | undefined> | null = null;
  const caText = () =>
    ca ??= config.caFile ? Deno.readTextFile(config.caFile) : Promise.resolve(undefined);
  return {
    async send(message: OutgoingMessage): Promise<SubmissionAnswer> {
      const transport = (nodemailer as unknown as {
        createTransport(options: Record<string, unknown>): Transport;
      }).createTransport({
        host: config.host,
        port: config.port,
        secure: config.implicitTls,
        requireTLS: !config.implicitTls,
        auth: { user: config.user, pass: config.password },
        tls: { ca: await caText(), rejectUnauthorized: true },
        connectionTimeout: options.timeoutMs,
        greetingTimeout: options.timeoutMs,
        socketTimeout: options.timeoutMs,
        disableFileAccess: true,
        disableUrlAccess: true,
      });
      try {
        const sent = await transport.sendMail({ from: options.from, ...message });
        return sent.accepted.length > 0
          ? { kind: "sent" }
          : { kind: "unavailable", message: "the submission server refused the recipient" };
      } catch (error) {
        return { kind: "unavailable", message: describe(error) };
      } finally {
        transport.close();
      }
    },
  };
}

/** nodemailer's error code and the server's reply code, never the message or its recipient. */
function describe(error: unknown): string {
  const e = error as { code?: string; responseCode?: number; command?: string };
  return [
    "the submission server could not take the message",
    e.code
      ? `(${e.code}${e.command ? ` at ${e.command}` : ""}` +
        `${e.responseCode ? `, reply ${e.responseCode}` : ""})`
      : "",
  ].filter(Boolean).join(" ");
}
