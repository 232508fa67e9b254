/**
 * A deterministic demo directory: `demoPeople(n, { now })` gives n import records (the JSON-lines
 * shape) of fictional people at 21 fictional companies on reserved `.example` domains (RFC 2606:
 * never real), so a newcomer can try find (and later lookups) without any data of their own.
 *
 * The same n and seed always give the same people (and the first n of a larger set are the same
 * people); only the verification times move with `now`, so the about one person in three who has
 * a `valid` work address was verified recently whenever the demo is loaded. Names come from a
 * dozen and more origins, written given name first, with their diacritics and particles
 * ("Jürgen von Bülow", "Siobhán Ó Súilleabháin", "László Nagy"), and carry their given name and
 * surname, so each company's address pattern (first.last, flast, …) can be learned from them.
 */
import { mulberry32 } from "../shared/mulberry32.ts";
import type { HeadcountRange } from "./directory_person.ts";
import type { ImportRecordInput } from "./import_people.ts";
import { foldName } from "./normalize.ts";

export type EmailPattern =
  | "first.last"
  | "flast"
  | "first"
  | "firstlast"
  | "f.last"
  | "first_last"
  | "lastf"
  | "last.first";

export interface DemoCompany {
  name: string;
  aliases: string[];
  /** Null for the one company that has no website. */
  domain: string | null;
  industry: string;
  headcount: HeadcountRange;
  location: string;
  pattern: EmailPattern;
  /** Where most of its people's names come from. */
  origins: Origin[];
}

type Origin =
  | "english"
  | "german"
  | "french"
  | "spanish"
  | "portuguese"
  | "dutch"
  | "italian"
  | "polish"
  | "hungarian"
  | "japanese"
  | "chinese"
  | "korean"
  | "indian"
  | "nigerian"
  | "turkish"
  | "arabic"
  | "irish"
  | "nordic";

const NAMES: Record<Origin, { given: string[]; surnames: string[] }> = {
  english: {
    given: ["Oliver", "Emma", "James", "Charlotte", "Harry", "Amelia", "George", "Sophie"],
    surnames: ["Smith", "Taylor", "Brown", "Wilson", "Evans", "Walker", "Hughes", "Clarke"],
  },
  german: {
    given: ["Jürgen", "Lukas", "Anna", "Lena", "Maximilian", "Greta", "Felix", "Käthe"],
    surnames: ["Müller", "Schmidt", "Schäfer", "Weiß", "Becker", "Köhler", "von Bülow", "Hoffmann"],
  },
  french: {
    given: ["Amélie", "Jérôme", "Camille", "Théo", "Hélène", "François", "Zoé", "Benoît"],
    surnames: ["Dubois", "Lefèvre", "Moreau", "Girard", "de La Fontaine", "Rousseau", "Lemaître"],
  },
  spanish: {
    given: ["José", "María", "Lucía", "Alejandro", "Sofía", "Javier", "Ángela", "Martín"],
    surnames: [
      "García Márquez",
      "Fernández",
      "López",
      "Núñez",
      "de la Cruz",
      "Rodríguez Sánchez",
      "Ibáñez",
    ],
  },
  portuguese: {
    given: ["João", "Ana", "Luíza", "Gonçalo", "Thiago", "Beatriz", "Inês"],
    surnames: ["Gonçalves", "da Silva", "Araújo", "Conceição", "dos Santos", "Figueiredo"],
  },
  dutch: {
    given: ["Sanne", "Daan", "Bram", "Femke", "Joris", "Lotte"],
    surnames: ["van der Berg", "de Vries", "van Dijk", "Bakker", "Jansen", "van den Heuvel"],
  },
  italian: {
    given: ["Giulia", "Lorenzo", "Matteo", "Chiara", "Alessandro", "Francesca", "Niccolò"],
    surnames: ["Rossi", "Esposito", "Bianchi", "De Luca", "Colombo", "Ricci", "D'Angelo"],
  },
  polish: {
    given: ["Łukasz", "Agnieszka", "Paweł", "Małgorzata", "Wojciech", "Zofia"],
    surnames: ["Kowalski", "Wiśniewska", "Wójcik", "Zieliński", "Szymańska", "Dąbrowski"],
  },
  hungarian: {
    given: ["László", "Zsófia", "Bence", "Réka", "Gábor", "Eszter"],
    surnames: ["Nagy", "Kovács", "Tóth", "Szabó", "Horváth", "Varga"],
  },
  japanese: {
    given: ["Hiroshi", "Yuki", "Haruto", "Sakura", "Kenji", "Aiko", "Shōta"],
    surnames: ["Tanaka", "Suzuki", "Watanabe", "Yamamoto", "Nakamura", "Kobayashi", "Ōno"],
  },
  chinese: {
    given: ["Xiaoming", "Wei", "Jing", "Haoran", "Mei", "Zhiwei"],
    surnames: ["Zhou", "Wang", "Li", "Chen", "Liu", "Zhang"],
  },
  korean: {
    given: ["Minjun", "Seoyeon", "Jiho", "Hayoon", "Dohyun", "Yuna"],
    surnames: ["Kim", "Lee", "Park", "Choi", "Jung", "Kang"],
  },
  indian: {
    given: ["Priya", "Arjun", "Ananya", "Rohan", "Kavya", "Vikram"],
    surnames: ["Sharma", "Patel", "Iyer", "Reddy", "Banerjee", "Nair"],
  },
  nigerian: {
    given: ["Chinedu", "Ngozi", "Oluwaseun", "Adaeze", "Emeka", "Folake"],
    surnames: ["Okafor", "Adeyemi", "Eze", "Okonkwo", "Balogun", "Nwosu"],
  },
  turkish: {
    given: ["Ayşe", "Mehmet", "Elif", "Burak", "Zeynep", "Oğuz"],
    surnames: ["Yılmaz", "Kaya", "Demir", "Şahin", "Çelik", "Öztürk"],
  },
  arabic: {
    given: ["Omar", "Layla", "Youssef", "Fatima", "Karim", "Nour"],
    surnames: ["Al-Farsi", "Haddad", "El-Amin", "Mansour", "Al-Rashid", "Khalil"],
  },
  irish: {
    given: ["Siobhán", "Seán", "Aoife", "Ciarán", "Niamh", "Pádraig"],
    surnames: ["O'Brien", "Ó Súilleabháin", "McCarthy", "Byrne", "O'Connor", "Mac Giolla"],
  },
  nordic: {
    given: ["Søren", "Åsa", "Bjørn", "Ingrid", "Mikael", "Sigrid"],
    surnames: ["Jørgensen", "Lindqvist", "Håkansson", "Nørgaard", "Ek", "Bergström"],
  },
};
const ORIGINS = Object.keys(NAMES) as Origin[];

/** The demo's companies: fictional, each on its own `.example` domain and address pattern. */
export const DEMO_COMPANIES: readonly DemoCompany[] = [
  {
    name: "Northwind Analytics GmbH",
    aliases: ["Northwind"],
    domain: "northwind-analytics.example",
    industry: "Software",
    headcount: "201-500",
    location: "Berlin, Germany",
    pattern: "first.last",
    origins: ["german", "turkish", "polish"],
  },
  {
    name: "Lumière Médias SAS",
    aliases: ["Lumiere Medias"],
    domain: "lumiere-medias.example",
    industry: "Media",
    headcount: "51-200",
    location: "Paris, France",
    pattern: "f.last",
    origins: ["french", "arabic"],
  },
  {
    name: "Tanaka Robotics K.K.",
    aliases: ["Tanaka Robotics"],
    domain: "tanaka-robotics.example",
    industry: "Industrial Automation",
    headcount: "1001-5000",
    location: "Osaka, Japan",
    pattern: "flast",
    origins: ["japanese"],
  },
  {
    name: "Vásquez & Ortega S.A.",
    aliases: ["Vasquez Ortega Abogados"],
    domain: "vasquez-ortega.example",
    industry: "Legal Services",
    headcount: "11-50",
    location: "Madrid, Spain",
    pattern: "first.last",
    origins: ["spanish"],
  },
  {
    name: "Blue Harbor Logistics Ltd",
    aliases: ["Blue Harbour Logistics", "BHL"],
    domain: "blueharbor.example",
    industry: "Logistics",
    headcount: "501-1000",
    location: "Manchester, United Kingdom",
    pattern: "firstlast",
    origins: ["english", "indian", "nigerian"],
  },
  {
    name: "Kovács és Társa Kft.",
    aliases: ["Kovacs & Partners"],
    domain: "kovacs-tarsa.example",
    industry: "Accounting",
    headcount: "11-50",
    location: "Budapest, Hungary",
    pattern: "last.first",
    origins: ["hungarian"],
  },
  {
    name: "Fjordlys Energi AS",
    aliases: ["Fjordlys"],
    domain: "fjordlys.example",
    industry: "Renewable Energy",
    headcount: "201-500",
    location: "Oslo, Norway",
    pattern: "first",
    origins: ["nordic"],
  },
  {
    name: "Saffron Health Pvt. Ltd.",
    aliases: ["Saffron Health"],
    domain: "saffron-health.example",
    industry: "Healthcare",
    headcount: "1001-5000",
    location: "Bengaluru, India",
    pattern: "first.last",
    origins: ["indian"],
  },
  {
    name: "Eko Payments Plc",
    aliases: ["Eko Pay"],
    domain: "eko-payments.example",
    industry: "Financial Services",
    headcount: "201-500",
    location: "Lagos, Nigeria",
    pattern: "flast",
    origins: ["nigerian", "english"],
  },
  {
    name: "Van Dijk Bouw B.V.",
    aliases: ["Van Dijk Construction"],
    domain: "vandijk-bouw.example",
    industry: "Construction",
    headcount: "51-200",
    location: "Amsterdam, Netherlands",
    pattern: "f.last",
    origins: ["dutch"],
  },
  {
    name: "Acme Widgets, Inc.",
    // Not plain "Acme": that is the fakes' company at acme.test (`deno task fakes`), and an alias
    // here would send the README's company-mode find for "Acme Inc." to this company instead.
    aliases: ["AWI", "Acme Widgets Corp"],
    domain: "acme-widgets.example",
    industry: "Manufacturing",
    headcount: "5001-10000",
    location: "Austin, United States",
    pattern: "first_last",
    origins: ["english", "spanish", "chinese", "indian"],
  },
  {
    name: "Café Aurora Lda",
    aliases: ["Cafe Aurora"],
    domain: "cafe-aurora.example",
    industry: "Food & Beverage",
    headcount: "11-50",
    location: "Lisbon, Portugal",
    pattern: "first",
    origins: ["portuguese"],
  },
  {
    name: "Golden Gate Bio Corp.",
    aliases: ["GG Bio"],
    domain: "goldengate-bio.example",
    industry: "Biotechnology",
    headcount: "501-1000",
    location: "San Francisco, United States",
    pattern: "flast",
    origins: ["english", "chinese", "korean", "indian"],
  },
  {
    name: "Seoul Pixel Studios Co., Ltd.",
    aliases: ["Seoul Pixel"],
    domain: "seoulpixel.example",
    industry: "Video Games",
    headcount: "201-500",
    location: "Seoul, South Korea",
    pattern: "firstlast",
    origins: ["korean"],
  },
  {
    name: "Dragon River Trading Co., Ltd.",
    aliases: ["Dragon River"],
    domain: "dragonriver.example",
    industry: "Wholesale",
    headcount: "1001-5000",
    location: "Shanghai, China",
    pattern: "lastf",
    origins: ["chinese"],
  },
  {
    name: "Boğaziçi Yazılım A.Ş.",
    aliases: ["Bosphorus Software"],
    domain: "bogazici-yazilim.example",
    industry: "Software",
    headcount: "51-200",
    location: "Istanbul, Türkiye",
    pattern: "first.last",
    origins: ["turkish"],
  },
  {
    name: "Cedar & Sand Consulting LLC",
    aliases: ["Cedar and Sand"],
    domain: "cedar-sand.example",
    industry: "Management Consulting",
    headcount: "11-50",
    location: "Dubai, United Arab Emirates",
    pattern: "first",
    origins: ["arabic", "english", "indian"],
  },
  {
    name: "Emerald Isle Insurance DAC",
    aliases: ["Emerald Isle"],
    domain: "emerald-isle.example",
    industry: "Insurance",
    headcount: "1001-5000",
    location: "Dublin, Ireland",
    pattern: "first.last",
    origins: ["irish", "english", "polish"],
  },
  {
    name: "Milano Moda S.p.A.",
    aliases: ["Milano Moda"],
    domain: "milano-moda.example",
    industry: "Fashion",
    headcount: "501-1000",
    location: "Milan, Italy",
    pattern: "f.last",
    origins: ["italian"],
  },
  {
    name: "Wisła Data Sp. z o.o.",
    aliases: ["Wisla Data"],
    domain: "wisla-data.example",
    industry: "Data Infrastructure",
    headcount: "51-200",
    location: "Warsaw, Poland",
    pattern: "flast",
    origins: ["polish", "german"],
  },
  {
    name: "Quiet Garden Studio",
    aliases: [],
    domain: null,
    industry: "Design",
    headcount: "1-10",
    location: "Copenhagen, Denmark",
    pattern: "first",
    origins: ["nordic", "dutch"],
  },
];

const FUNCTIONS = [
  { name: "Engineering", role: "Software Engineer", chief: "Chief Technology Officer" },
  { name: "Data", role: "Data Scientist", chief: "Chief Data Officer" },
  { name: "Product", role: "Product Manager", chief: "Chief Product Officer" },
  { name: "Design", role: "Product Designer", chief: "Chief Design Officer" },
  { name: "Sales", role: "Account Executive", chief: "Chief Revenue Officer" },
  { name: "Marketing", role: "Marketing Specialist", chief: "Chief Marketing Officer" },
  { name: "Finance", role: "Financial Analyst", chief: "Chief Financial Officer" },
  { name: "Operations", role: "Operations Analyst", chief: "Chief Operating Officer" },
  { name: "People", role: "Recruiter", chief: "Chief People Officer" },
  { name: "Legal", role: "Legal Counsel", chief: "General Counsel" },
  { name: "Customer Success", role: "Customer Success Manager", chief: "Chief Customer Officer" },
] as const;

const KEYWORDS: Record<(typeof FUNCTIONS)[number]["name"], string[]> = {
  Engineering: ["typescript", "kubernetes", "postgres", "rust", "go", "distributed systems"],
  Data: ["python", "machine learning", "sql", "forecasting", "dbt", "statistics"],
  Product: ["roadmapping", "discovery", "b2b saas", "pricing", "analytics"],
  Design: ["figma", "design systems", "user research", "accessibility"],
  Sales: ["enterprise sales", "saas", "negotiation", "pipeline", "partnerships"],
  Marketing: ["seo", "content", "demand generation", "brand", "events"],
  Finance: ["fp&a", "ifrs", "treasury", "audit", "excel"],
  Operations: ["supply chain", "lean", "procurement", "logistics"],
  People: ["recruiting", "employer branding", "onboarding", "compensation"],
  Legal: ["contracts", "gdpr", "compliance", "m&a"],
  "Customer Success": ["onboarding", "renewals", "support", "account management"],
};

/** Seniority levels with their weights (of 100). */
const SENIORITY: [string, number][] = [
  ["entry", 24],
  ["senior", 30],
  ["manager", 20],
  ["director", 12],
  ["vp", 7],
  ["cxo", 4],
  ["owner", 3],
];

const OTHER_LOCATIONS = [
  "Munich, Germany",
  "London, United Kingdom",
  "Lyon, France",
  "Barcelona, Spain",
  "São Paulo, Brazil",
  "Tokyo, Japan",
  "New York, United States",
  "Toronto, Canada",
  "Sydney, Australia",
  "Stockholm, Sweden",
  "Remote",
];

/** A word of a name as it goes into an address: folded, letters and digits only. */
function mailWord(s: string): string {
  return foldName(s).replace(/[^a-z0-9]/g, "");
}

/** The local part of an address under a pattern (`Ada Lovelace`, first.last → `ada.lovelace`). */
export function localPart(pattern: EmailPattern, given: string, surname: string): string {
  const first = mailWord(given.split(" ")[0]);
  const last = mailWord(surname);
  const f = first[0];
  switch (pattern) {
    case "first.last":
      return `${first}.${last}`;
    case "flast":
      return `${f}${last}`;
    case "first":
      return first;
    case "firstlast":
      return `${first}${last}`;
    case "f.last":
      return `${f}.${last}`;
    case "first_last":
      return `${first}_${last}`;
    case "lastf":
      return `${last}${f}`;
    case "last.first":
      return `${last}.${first}`;
  }
}

export interface DemoPeopleOptions {
  /** Verification times are set within the 30 days before this. */
  now: Date | number;
  seed?: number;
}

const DAY_MS = 86_400_000;

export function demoPeople(n: number, options: DemoPeopleOptions): ImportRecordInput[] {
  const now = typeof options.now === "number" ? options.now : options.now.getTime();
  const random = mulberry32(options.seed ?? 20_261_123);
  const takenAddresses = new Set<string>();
  const records: ImportRecordInput[] = [];
  for (let index = 0; index < n; index++) {
    // A fixed number of draws per person keeps person k the same whatever n is.
    const draws = Array.from({ length: 24 }, random);
    let d = 0;
    const next = () => draws[d++];
    const choose = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];

    const freelance = next() < 0.03;
    const company = choose(DEMO_COMPANIES);
    const origin = next() < 0.75 ? choose(company.origins) : choose(ORIGINS);
    const given = choose(NAMES[origin].given);
    const surname = choose(NAMES[origin].surnames);
    const name = `${given} ${surname}`;
    const fn = choose(FUNCTIONS);
    const seniority = weighted(next());
    const title = titleOf(seniority, fn, next());
    const location = next() < 0.7 ? company.location : choose(OTHER_LOCATIONS);
    const keywordPool = KEYWORDS[fn.name];
    const keywordCount = 2 + Math.floor(next() * 3);
    const start = Math.floor(next() * keywordPool.length);
    const keywords = Array.from(
      { length: Math.min(keywordCount, keywordPool.length) },
      (_, k) => keywordPool[(start + k) % keywordPool.length],
    );
    const slug = `${mailWord(given)}-${mailWord(surname)}-${scramble(index)}`;
    const handle = `${mailWord(given)}${mailWord(surname).slice(0, 6)}${index % 97}`;
    const hasX = next() < 0.25;
    const hasTelegram = next() < 0.1;
    const hasPersonal = next() < 0.1;
    const hasWorkEmail = next() < 0.34;
    const verifiedAgo = Math.floor(next() * 30 * DAY_MS) + 3_600_000;

    const emails: { address: string; status: "valid"; verifiedAt: string }[] = [];
    if (!freelance && company.domain && hasWorkEmail) {
      const address = `${localPart(company.pattern, given, surname)}@${company.domain}`;
      if (!takenAddresses.has(address)) {
        takenAddresses.add(address);
        emails.push({
          address,
          status: "valid",
          verifiedAt: new Date(now - verifiedAgo).toISOString(),
        });
      }
    }
    records.push({
      name,
      given,
      surname,
      title,
      seniority,
      companyName: freelance ? null : company.name,
      companyAliases: freelance ? [] : company.aliases,
      companyDomain: freelance ? null : company.domain,
      companyLocation: freelance ? null : company.location,
      industry: freelance ? null : company.industry,
      headcount: freelance ? null : company.headcount,
      location,
      headline: freelance ? `Independent ${fn.role}` : `${title} at ${company.name}`,
      networkUrl: `https://network.example/in/${slug}`,
      keywords,
      emails,
      channels: {
        x: hasX ? `@${handle}` : null,
        telegram: hasTelegram ? `@${handle}` : null,
        emails: hasPersonal ? [`${handle}@mail.example`] : [],
      },
    });
  }
  return records;
}

function weighted(u: number): string {
  let at = u * 100;
  for (const [level, weight] of SENIORITY) {
    if (at < weight) return level;
    at -= weight;
  }
  return "senior";
}

function titleOf(seniority: string, fn: (typeof FUNCTIONS)[number], u: number): string {
  switch (seniority) {
    case "entry":
      return u < 0.5 ? `Junior ${fn.role}` : `${fn.name} Associate`;
    case "senior":
      return `Senior ${fn.role}`;
    case "manager":
      return `${fn.name} Manager`;
    case "director":
      return `Director of ${fn.name}`;
    case "vp":
      return u < 0.5 ? `VP of ${fn.name}` : `Vice President, ${fn.name}`;
    case "cxo":
      return fn.chief;
    default:
      return u < 0.5 ? "Founder & CEO" : "Co-Founder";
  }
}

/** A distinct short tag per index (an odd multiplier is a bijection on 32-bit integers). */
function scramble(index: number): string {
  return (Math.imul(index + 1, 0x9e3779b1) >>> 0).toString(36);
}
