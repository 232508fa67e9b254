/**
 * `deep-email-validator` on the addresses given on stdin (one a line), for `bench:verify`'s
 * comparison, run by it as a child process whose only network permission is the benchmark world's
 * DNS server (`--allow-net=<VERIFY_DNS_SERVER>`): the package can be told no DNS server and no
 * SMTP port (it asks the process's resolver, `node:dns`, and dials port 25 at the MX host's name
 * through the system's name lookup), so whatever it would send elsewhere is refused by Deno's
 * permissions before any packet leaves. `node:dns`'s servers are set to the world's DNS, so its MX
 * question can be answered here. Prints one JSON line per address: its verdict, the level that
 * failed and why, and the milliseconds it took. `SMTP=false` runs its offline checks only.
 */
import dns from "node:dns";
import { validate } from "deep-email-validator";

const server = Deno.env.get("DEV_DNS_SERVER") ?? "127.0.0.20:5353";
dns.setServers([server]);
const smtp = Deno.env.get("SMTP") !== "false";
const concurrency = Number(Deno.env.get("CONCURRENCY") ?? 32);

const addresses = (await new Response(Deno.stdin.readable).text()).split("\n").filter(Boolean);
const queue = addresses.map((email, i) => ({ email, i }));
const results: string[] = new Array(addresses.length);
const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, async () => {
  for (let item = queue.shift(); item; item = queue.shift()) {
    const t0 = performance.now();
    let line: Record<string, unknown>;
    try {
      const out = await validate({
        email: item.email,
        sender: "bench@verifier.test",
        validateSMTP: smtp,
        // Without it every `.test` domain is "a likely typo" of a common ending.
        additionalTopLevelDomains: ["test"],
      });
      const failed = out.reason ? out.validators[out.reason]?.reason : undefined;
      line = {
        email: item.email,
        valid: out.valid,
        level: out.reason ?? null,
        why: failed ?? null,
      };
    } catch (error) {
      line = { email: item.email, valid: null, level: "threw", why: String(error) };
    }
    results[item.i] = JSON.stringify({ ...line, ms: Math.round(performance.now() - t0) });
  }
}));
console.log(results.join("\n"));
console.error(`elapsed ${Math.round(performance.now() - started)} ms`);
