/**
 * Writes a deterministic JSON-lines file for `deno task admin import` measurements:
 *
 *   deno run --allow-write bench/make_directory_file.ts /tmp/people100k.jsonl --lines 100000
 *
 * People come from the demo generator (names of many origins, titles, locations, keywords,
 * channels, a third with a valid work address), spread over `--companies` fictional companies on
 * `.example` domains (one in twenty without a domain). As in a real file, no record carries
 * given/surname (the importer's name model splits them), and one in ten has no profile URL.
 */
import { parseArgs } from "node:util";
import { demoPeople, localPart } from "../domain/directory/demo_people.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: {
    lines: { type: "string", default: "100000" },
    companies: { type: "string", default: "8000" },
  },
  allowPositionals: true,
});
const out = positionals[0];
if (!out) {
  console.error("usage: make_directory_file.ts OUT.jsonl [--lines N] [--companies N]");
  Deno.exit(2);
}
const lines = Number(values.lines);
const companies = Number(values.companies);

const WORDS = [
  "Amber",
  "Birch",
  "Cobalt",
  "Delta",
  "Ember",
  "Fern",
  "Granite",
  "Harbor",
  "Iris",
  "Juniper",
  "Kestrel",
  "Lumen",
  "Maple",
  "Nimbus",
  "Onyx",
  "Pine",
  "Quartz",
  "Raven",
  "Sierra",
  "Tundra",
];
const KINDS = ["Labs", "Systems", "Partners", "Logistics", "Health", "Media", "Robotics", "Foods"];
const FORMS = ["Inc.", "GmbH", "Ltd", "S.A.", "B.V.", "LLC", "AB", "K.K.", "S.p.A.", "Oy", ""];
const PATTERNS = ["first.last", "flast", "first", "firstlast", "f.last", "first_last"] as const;
const INDUSTRIES = ["Software", "Logistics", "Healthcare", "Media", "Manufacturing", "Insurance"];
const HEADCOUNTS = ["1-10", "11-50", "51-200", "201-500", "501-1000", "1001-5000", "10001+"];
const CITIES = ["Berlin, Germany", "Lyon, France", "Osaka, Japan", "Austin, United States"];

function company(k: number) {
  const a = WORDS[k % WORDS.length];
  const b = WORDS[Math.floor(k / WORDS.length) % WORDS.length];
  const kind = KINDS[k % KINDS.length];
  const base = `${a} ${b} ${kind} ${k}`;
  return {
    name: `${base} ${FORMS[k % FORMS.length]}`.trim(),
    alias: base,
    domain: k % 20 === 19 ? null : `${a}-${b}-${k}.example`.toLowerCase(),
    pattern: PATTERNS[k % PATTERNS.length],
    industry: INDUSTRIES[k % INDUSTRIES.length],
    headcount: HEADCOUNTS[k % HEADCOUNTS.length],
    location: CITIES[k % CITIES.length],
  };
}

const file = await Deno.open(out, { write: true, create: true, truncate: true });
const writer = file.writable.getWriter();
const encoder = new TextEncoder();
const now = new Date();
const CHUNK = 10_000;
for (let start = 0; start < lines; start += CHUNK) {
  // demoPeople(n) is a prefix of demoPeople(m > n): take this chunk's slice of one long run.
  const people = demoPeople(Math.min(lines, start + CHUNK), { now }).slice(start);
  const text = people.map((p, j) => {
    const index = start + j;
    const c = company((index * 7919) % companies);
    const { given, surname, ...record } = p;
    const emails = c.domain && record.emails?.length
      ? [{
        ...record.emails[0],
        address: `${localPart(c.pattern, given!, surname!)}.${index}@${c.domain}`,
      }]
      : [];
    return JSON.stringify({
      ...record,
      companyName: c.name,
      companyAliases: [c.alias],
      companyDomain: c.domain,
      companyLocation: c.location,
      industry: c.industry,
      headcount: c.headcount,
      headline: record.title ? `${record.title} at ${c.alias}` : null,
      networkUrl: index % 10 === 9 ? null : record.networkUrl,
      emails,
    });
  }).join("\n") + "\n";
  await writer.write(encoder.encode(text));
}
await writer.close();
console.error(`wrote ${lines} lines to ${out}`);
