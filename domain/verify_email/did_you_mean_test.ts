import assert from "node:assert/strict";
import { didYouMean, editDistance } from "./did_you_mean.ts";

Deno.test("editDistance counts a swap of neighbours as one edit", () => {
  assert.equal(editDistance("gmial.com", "gmail.com"), 1);
  assert.equal(editDistance("gmail.co", "gmail.com"), 1);
  assert.equal(editDistance("hotmial.con", "hotmail.com"), 2);
  assert.equal(editDistance("acme.com", "me.com"), 2);
  assert.equal(editDistance("", "abc"), 3);
});

Deno.test("didYouMean suggests the common domain a typo is closest to", () => {
  assert.equal(didYouMean("gmial.com"), "gmail.com");
  assert.equal(didYouMean("gnail.com"), "gmail.com");
  assert.equal(didYouMean("gmail.co"), "gmail.com");
  assert.equal(didYouMean("yaho.com"), "yahoo.com");
  assert.equal(didYouMean("hotmial.con"), "hotmail.com");
  assert.equal(didYouMean("outlok.com"), "outlook.com");
});

Deno.test("didYouMean leaves real and unrelated domains alone", () => {
  for (
    const domain of [
      "gmail.com",
      "acme.com",
      "acme.test",
      "mail.com",
      "example.org",
      "gmx.de",
      "hotmail.de",
      "yahoo.es",
      "live.ca",
      "email.com",
    ]
  ) {
    assert.equal(didYouMean(domain), null, domain);
  }
  assert.equal(didYouMean(""), null);
});
