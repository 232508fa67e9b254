import assert from "node:assert/strict";
import { bareHost } from "./bare_host.ts";

Deno.test("bareHost: a domain or website URL reduced to its bare host", () => {
  assert.equal(bareHost("acme.com"), "acme.com");
  assert.equal(bareHost("https://www.Acme.com/about"), "acme.com");
  assert.equal(bareHost("mailto:jane@acme.com"), "acme.com");
  assert.equal(bareHost("mail.acme.co.uk."), "mail.acme.co.uk");
  for (const none of ["", "Acme Inc", "localhost", "127.0.0.1", "http://[::1]/", "acme"]) {
    assert.equal(bareHost(none), null, none);
  }
});

Deno.test("bareHost: an internationalised name in the ASCII form DNS and SMTP take", () => {
  // (the SMTP verifier refuses a host name that is not ASCII, so it must never get one)
  assert.equal(bareHost("münchen.de"), "xn--mnchen-3ya.de");
  assert.equal(bareHost("https://www.MÜNCHEN.de/impressum"), "xn--mnchen-3ya.de");
  assert.equal(bareHost("xn--mnchen-3ya.de"), "xn--mnchen-3ya.de");
  assert.equal(bareHost("例え.jp"), "xn--r8jz45g.jp");
});
