import assert from "node:assert/strict";
import { isRoleMailbox } from "./role_mailbox.ts";

Deno.test("role mailboxes: the shared ones, as an address or a local part", () => {
  const roles = [
    "info",
    "sales",
    "admin",
    "support",
    "contact",
    "office",
    "hello",
    "team",
    "postmaster",
    "abuse",
    "noreply",
    "no-reply",
    "webmaster",
    "hostmaster",
    "billing",
    "hr",
    "jobs",
    "careers",
    "marketing",
    "press",
    "security",
  ];
  for (const role of roles) {
    assert.equal(isRoleMailbox(role), true, role);
    assert.equal(isRoleMailbox(`${role}@acme.test`), true, `${role}@acme.test`);
  }
  assert.equal(isRoleMailbox(" Info+news@Acme.test"), true);
});

Deno.test("role mailboxes: a person's local part is none, even with a role word in it", () => {
  for (
    const local of ["info.smith", "jsmith", "grace.hopper", "jobsen", "salesm", "", "@acme.test"]
  ) {
    assert.equal(isRoleMailbox(local), false, local);
  }
});
