import assert from "node:assert/strict";
import { mailProviderOf } from "./mail_provider.ts";

Deno.test("mailProviderOf: the published MX names of each provider", () => {
  const cases: Array<[string, string]> = [
    ["aspmx.l.google.com", "google"],
    ["ALT1.ASPMX.L.GOOGLE.COM.", "google"],
    ["smtp.google.com", "google"],
    ["acme-com.mail.protection.outlook.com", "microsoft"],
    ["mx0a-00123401.pphosted.com", "proofpoint"],
    ["mx1-us1.ppe-hosted.com", "proofpoint"],
    ["us-smtp-inbound-1.mimecast.com", "mimecast"],
    ["d123456a.ess.barracudanetworks.com", "barracuda"],
    ["mx1.hc1234-56.iphmx.com", "cisco"],
    ["acme.in.tmes.trendmicro.com", "trendmicro"],
    ["mx-01-us-west-2.prod.hydra.sophos.com", "sophos"],
    ["mta5.am0.yahoodns.net", "yahoo"],
    ["mx.zoho.eu", "zoho"],
    ["in1-smtp.messagingengine.com", "fastmail"],
    ["mx01.mail.icloud.com", "apple"],
    ["mail.protonmail.ch", "proton"],
    ["inbound-smtp.us-east-1.amazonaws.com", "amazon"],
    ["mx.plain.test", "other"],
  ];
  for (const [host, provider] of cases) assert.equal(mailProviderOf(host), provider, host);
});

Deno.test("mailProviderOf: whole labels only, never a look-alike", () => {
  assert.equal(mailProviderOf("mx.notgoogle.com"), "other");
  assert.equal(mailProviderOf("google.com.evil.test"), "other");
  assert.equal(mailProviderOf("pphosted.com.example"), "other");
});
