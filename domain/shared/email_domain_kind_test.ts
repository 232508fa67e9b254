/** `emailDomainKind` against the two bundled lists, and the notes that go with each kind. */
import assert from "node:assert/strict";
import { DOMAIN_KIND_NOTES, emailDomainKind } from "./email_domain_kind.ts";

Deno.test("emailDomainKind: free mailbox providers", () => {
  for (const domain of ["gmail.com", "yahoo.com", "outlook.com", "proton.me", "gmx.de", "qq.com"]) {
    assert.equal(emailDomainKind(domain), "free", domain);
  }
});

Deno.test("emailDomainKind: throwaway-address services, also when a free list names them", () => {
  for (const domain of ["guerrillamail.com", "0815.ru"]) {
    assert.equal(emailDomainKind(domain), "disposable", domain);
  }
  // mailinator.com and 10minutemail.com are on both lists: disposable wins.
  assert.equal(emailDomainKind("mailinator.com"), "disposable");
  assert.equal(emailDomainKind("10minutemail.com"), "disposable");
});

Deno.test("emailDomainKind: a domain on neither list is work", () => {
  for (const domain of ["acme.test", "bbc.co.uk", "github.com", "example.com"]) {
    assert.equal(emailDomainKind(domain), "work", domain);
  }
});

Deno.test("emailDomainKind: case, spaces, a trailing dot and a whole address are read", () => {
  assert.equal(emailDomainKind("  GMail.COM. "), "free");
  assert.equal(emailDomainKind("Grace@Mailinator.com"), "disposable");
  assert.equal(emailDomainKind("grace@acme.test"), "work");
  assert.equal(emailDomainKind(""), "work");
  assert.equal(emailDomainKind("grace@"), "work");
});

Deno.test("emailDomainKind: subdomains count as their registrable domain, never beyond", () => {
  assert.equal(emailDomainKind("eu.mailinator.com"), "disposable");
  assert.equal(emailDomainKind("a.b.guerrillamail.com"), "disposable");
  // `net.ua` and `co.cc` are on the free list, but they are public suffixes, not providers.
  assert.equal(emailDomainKind("acme.net.ua"), "work");
  assert.equal(emailDomainKind("mail.acme.net.ua"), "work");
  assert.equal(emailDomainKind("net.ua"), "free");
});

Deno.test("emailDomainKind: internationalised entries match in either spelling", () => {
  // `gmaıl.net` (dotless ı) is on the disposable list as Unicode.
  assert.equal(emailDomainKind("gmaıl.net"), "disposable");
  const ascii = new URL("http://gmaıl.net").hostname;
  assert.match(ascii, /^xn--/);
  assert.equal(emailDomainKind(ascii), "disposable");
});

Deno.test("DOMAIN_KIND_NOTES: one note per kind, saying what it cannot tell", () => {
  assert.deepEqual(Object.keys(DOMAIN_KIND_NOTES).sort(), ["disposable", "free", "work"]);
  assert.match(DOMAIN_KIND_NOTES.free, /no employer/);
  assert.match(DOMAIN_KIND_NOTES.disposable, /names nobody/);
  assert.match(DOMAIN_KIND_NOTES.work, /does not by itself prove/);
  assert.ok(Object.isFrozen(DOMAIN_KIND_NOTES));
});
