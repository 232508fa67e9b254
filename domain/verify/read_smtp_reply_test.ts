/**
 * How replies are read: accept, reject, greylisting, and the policy refusals that must never
 * be read as "no such mailbox".
 */
import assert from "node:assert/strict";
import { readMailFromReply, readRcptReply, readSessionReply } from "./read_smtp_reply.ts";
import { parseReply } from "../providers/smtp/smtp_client.ts";

const read = (line: string) => readRcptReply(parseReply([line]));

Deno.test("readRcptReply: accept, reject and temporary", () => {
  assert.equal(read("250 2.1.5 Ok"), "accept");
  assert.equal(read("251 User not local; will forward"), "accept");
  assert.equal(read("550 5.1.1 <a@b.test>: Recipient address rejected: User unknown"), "reject");
  assert.equal(read("550 no"), "reject");
  assert.equal(read("551 User not local"), "reject");
  assert.equal(read("553 5.1.3 Bad recipient address syntax"), "reject");
  assert.equal(read("550 5.4.1 Recipient address rejected: Access denied"), "reject");
  assert.equal(read("511 5.1.1 odd code, mailbox status"), "reject");
  assert.equal(read("450 4.2.0 Greylisted"), "temporary");
  assert.equal(read("451 4.7.1 Please try again later"), "temporary");
  assert.equal(read("452 4.5.3 Too many recipients"), "temporary");
  assert.equal(read("421 4.3.2 Service shutting down"), "closing");
});

Deno.test("readRcptReply: policy refusals are never rejections", () => {
  assert.equal(read("554 5.7.1 Service unavailable; Client host blocked"), "policy");
  assert.equal(read("550 5.7.1 Relaying denied"), "policy");
  assert.equal(read("550 5.7.606 Access denied, banned sending IP"), "policy");
  assert.equal(read("550 Message rejected as spam"), "policy");
  assert.equal(read("550 5.1.1 blocked by Spamhaus"), "policy");
  assert.equal(read("553 Your IP is on our blacklist"), "policy");
  assert.equal(
    read("550 Client host rejected: cannot find your reverse hostname (rDNS)"),
    "policy",
  );
  assert.equal(read("550 rejected by local policy"), "policy");
  assert.equal(read("550 low sender reputation"), "policy");
  assert.equal(read("554 Transaction failed"), "policy");
});

Deno.test("readRcptReply: replies about our sender or client, 4xx or 5xx, say nothing of the mailbox", () => {
  // Postfix's reject_unknown_sender_domain, delayed to RCPT time.
  assert.equal(
    read("550 5.1.8 <verify@verifier.test>: Sender address rejected: Domain not found"),
    "sender",
  );
  assert.equal(
    read("450 4.1.8 <verify@verifier.test>: Sender address rejected: Domain not found"),
    "sender",
  );
  assert.equal(read("553 5.1.7 Invalid sender address"), "sender");
  assert.equal(read("550 Sender verify failed"), "sender");
  assert.equal(
    read("554 5.7.1 <verify@verifier.test>: Sender address rejected: Access denied"),
    "sender",
  );
  assert.equal(read("450 4.7.1 Client host rejected: cannot find your hostname"), "policy");
  assert.equal(
    read("504 5.5.2 <x>: Helo command rejected: need fully-qualified hostname"),
    "policy",
  );
  // Greylisting stays temporary, whatever its enhanced code.
  assert.equal(
    read("450 4.2.0 <a@grey.test>: Recipient address rejected: Greylisted, see http://postgrey"),
    "temporary",
  );
  assert.equal(read("451 4.7.1 Greylisting in action, please come back later"), "temporary");
  // A recipient refusal that mentions no sender stays a rejection.
  assert.equal(read("550 5.1.1 <a@b.test>: Recipient address rejected: User unknown"), "reject");
});

Deno.test("readMailFromReply: a refusal of MAIL FROM is about the sender or a policy", () => {
  const mail = (line: string) => readMailFromReply(parseReply([line]));
  assert.equal(mail("250 2.1.0 Ok"), "accept");
  assert.equal(mail("421 4.3.2 shutting down"), "closing");
  assert.equal(mail("550 5.1.0 Sender rejected"), "sender");
  assert.equal(mail("451 4.1.8 Domain of sender address does not resolve"), "sender");
  assert.equal(mail("553 5.7.1 Sender blocked by policy"), "policy");
  assert.equal(mail("554 Your IP is listed at Spamhaus"), "policy");
});

Deno.test("readRcptReply: anything else is unexpected", () => {
  assert.equal(read("552 5.2.2 Mailbox full"), "unexpected");
  assert.equal(read("501 5.5.4 Syntax error"), "unexpected");
  assert.equal(read("503 5.5.1 Bad sequence of commands"), "unexpected");
  assert.equal(read("252 Cannot verify"), "unexpected");
});

Deno.test("readSessionReply: greeting, EHLO and MAIL FROM", () => {
  const session = (line: string) => readSessionReply(parseReply([line]));
  assert.equal(session("220 mx ESMTP"), "accept");
  assert.equal(session("250 2.1.0 Ok"), "accept");
  assert.equal(session("421 too busy"), "closing");
  assert.equal(session("451 4.3.0 try later"), "temporary");
  assert.equal(session("554 5.7.1 go away"), "policy");
  assert.equal(session("550 no"), "policy");
});
