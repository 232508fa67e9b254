/**
 * Mail submission as a port: a message handed to the operator's submission server (RFC 6409),
 * which delivers it. The service sends one kind of message, the opt-out confirmation; a server
 * that cannot take it is a value, never an exception, and its description never holds the
 * recipient or the message.
 */

export interface OutgoingMessage {
  to: string;
  subject: string;
  text: string;
}

export type SubmissionAnswer =
  | { kind: "sent" }
  | { kind: "unavailable"; message: string };

export interface MailSender {
  send(message: OutgoingMessage): Promise<SubmissionAnswer>;
}
