/** `looksLikePhone` on the ways people write phone numbers, and on what is not one. */
import assert from "node:assert/strict";
import { dropPhones, looksLikePhone } from "./drop_phones.ts";

Deno.test("looksLikePhone: phone numbers as people write them", () => {
  for (
    const value of [
      "+1 415 555 0134",
      "+1 (415) 555-0134",
      "(415) 555-0134",
      "415.555.0134",
      "4155550134",
      "555-0134",
      "+44 20 7946 0958",
      "+442079460958",
      "0049 30 901820",
      "01 23 45 67 89",
      "030/901820-0",
      "tel:+14155550134",
      "TEL:555",
      "sms:+14155550134",
      "https://wa.me/14155550134",
      "https://t.me/+14155550134",
      "Call me at +1 415 555 0134.",
      "Mobile:+1 415 555 0134",
      "cell +1\u00A0415\u00A0555\u00A00134",
      "14155550134@s.whatsapp.net",
      "Berlin — +49 30 901820",
    ]
  ) {
    assert.ok(looksLikePhone(value), value);
  }
});

Deno.test("looksLikePhone: dates, years, short numbers, hashes and names are not phones", () => {
  for (
    const value of [
      "",
      "Grace Hopper",
      "Rear Admiral",
      "Arlington, VA 22201",
      "Berlin 10115",
      "2024-01-15",
      "15.01.2024",
      "1/15/2024",
      "Engineer 2015-2023",
      "2015 – 2023",
      "Since 1999",
      "Team of 120, 3 offices",
      "https://0.gravatar.com/avatar/3f4a1234567b9c8d7e6f5a4b3c2d1e0f3f4a1234567b9c8d7e6f5a4b3c2d1e0f",
      "https://network.example/in/ada-lovelace-4b1a2b3c",
      "https://gravatar.com/gracehopper",
      "grace@navy.test",
      "acme.test",
      "Version 1.2.3",
      "C++ developer",
    ]
  ) {
    assert.ok(!looksLikePhone(value), value);
  }
});

Deno.test("dropPhones: a field holding a phone number is dropped whole, list items one by one", () => {
  assert.deepEqual(
    dropPhones({
      name: "Grace Hopper",
      headline: "Call me at +1 415 555 0134",
      location: "Arlington, VA",
      telegram: "+14155550134",
      profileUrl: "https://gravatar.com/gracehopper",
      companyWebsite: "https://wa.me/14155550134",
      associatedEmails: ["grace@navy.test", "14155550134@s.whatsapp.net"],
    }),
    {
      name: "Grace Hopper",
      location: "Arlington, VA",
      profileUrl: "https://gravatar.com/gracehopper",
      associatedEmails: ["grace@navy.test"],
    },
  );
  assert.deepEqual(dropPhones({ associatedEmails: ["4155550134@sms.test"] }), {});
  assert.deepEqual(dropPhones({}), {});
});
