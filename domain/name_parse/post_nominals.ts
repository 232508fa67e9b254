/**
 * What may follow a name: generational suffixes, credentials and post-nominal letters, pronouns.
 * Keys are lower case with every period removed ("Ph.D." → "phd", "Jr." → "jr").
 *
 * - `suffix` / `credential`: dropped at the end of a name (and as a whole comma group).
 * - `suffix-weak` ("Senior", "Junior"): also surnames; dropped only when two name words remain.
 * - `credential-weak` ("MA", "MS", "BA", "DO", "PA", "EdD", "KC", "CEN"): also names ("Jack Ma",
 *   "Edd Byrnes", the Nepali surname KC, the Chinese surname Cen);
 *   dropped at the end only after a comma, written with periods ("M.A."), in capitals or with an
 *   inner capital ("EdD") in a name that is not all capitals, or after another credential.
 * - `numeral-v` ("V"): a suffix or an initial; dropped only at the very end of a plain name.
 * - `occupation` ("Trustee", "Realtor", "Broker", "Atty"): an occupation written after a name the
 *   way a credential is; dropped at the end while two name words remain (one on a side of a
 *   comma-inverted name), and as a whole comma group.
 *
 * Credentials are also recognised written with spaces between their dotted parts ("Ph. D.",
 * "R. N.", "M. B. A."): see `spacedCredentialLength`.
 */
import { KeyFilter } from "./key_filter.ts";
export type PostNominalKind =
  | "suffix"
  | "suffix-weak"
  | "numeral-v"
  | "credential"
  | "credential-weak"
  | "occupation";

const SUFFIX = `jr jnr jun sr snr ii iii iv vi vii viii 2nd 3rd 4th 5th 2d 3d`;
const SUFFIX_WEAK = `junior senior`;
const CREDENTIAL = `phd dphil md mba cpa esq esquire jd dds dmd rn lpn cfa clu cfp chfc lutc cpcu
  frcs frcp frcpc frcsc frcse mrcp mrcs mrcgp facs facp facc faap fache facog facep obe mbe cbe kbe
  dbe gbe kcb kcmg frs freng fba frse fmedsci mph msc bsc mbbs mbchb bchir bds dvm vmd pharmd psyd
  dsc scd llm lld llb mfa msw lcsw lmft lpc lcpc pmp cissp cisa cism rph dpt otr mhs msn dnp
  crnp aprn fnp pac mdiv thd dmin med mscs msee bsee pgeng dc qc cma cpim
  phr sphr shrm ret usn usmc usaf cfe cia cgma acca aca fca cga cpp cae rd ld cde ccrn mhsa mpa mph
  mpp mres mphil bpharm mpharm bvsc mrcvs ms.c msced frcpsych fracp fracs franzcp mbbch atp mmed
  faan fasa fasn fccp fesc fmed attorney
  lncc ccm cnor cpn cpnp pnp anp acnp agnp fnp-bc pmhnp crna cnm cns rnc rn-bc adn asn lvn cna
  rma rdh rdn cdces ibclc rrt otr/l slp ccc-slp atc cscs dpm drph dnsc dmsc mhsc msed bsed
  mba-hcm emba mhrm msn-ed
  cfa caia frm cpwa crpc crps aif aams ricp cltc casl cebs fsa fcas acas maaa cic cpia
  lutcf flmi rhu rebc cmfc chfebc cfs cpfa ppc aep ctfa
  gri crs abr sres e-pro epro cips rsps srs psa mrp ahwd c2ex cne alhs cdpe sfr ccim sior cpm crb
  bpor cre cpa/pfs
  llm llb jsd sjd
  aia faia ncarb asla pls cfm cih csp chmm
  shrm-cp shrm-scp ccna ccnp mcse csm cism cisa
  dabr dabfm faafp facs facep facr fapa faha fscai
  mha np-c pa-c emt emt-p emt-b bcba bcaba ncc cmt lmt cpc ccs rhia rhit cpht cphq ches lcadc ladc
  cadc lisw lsw lmsw licsw lpcc lmhc`;
const CREDENTIAL_WEAK = `ma ms bs ba do pa pe od mp np ab sb sm am mre bsn be edd cen kc aai cima`;
/**
 * Occupations written after a name like a credential ("Jane Roe, Trustee", "Jane Roe Realtor"),
 * and the job titles of a signature or profile headline ("Jane Roe, CEO", "Jane Roe - Founder").
 */
const OCCUPATION = `trustee trustees ttee co-trustee realtor realtors broker brokers broker/owner
  broker-owner atty attys attorneys attorney-at-law
  ceo cfo coo cto cmo cio ciso cpo cro cco vp svp evp avp founder co-founder cofounder president
  chairman chairwoman chairperson director manager
  pharmacist architect engineer accountant physician dentist consultant photographer designer
  surveyor veterinarian optometrist chiropractor therapist psychologist psychiatrist notary
  paralegal auctioneer appraiser electrician economist journalist scientist researcher analyst
  programmer editor translator interpreter librarian physiotherapist radiologist surgeon
  pediatrician paediatrician dietitian hygienist counselor counsellor mediator lawyer solicitor
  barrister agent optician midwife sonographer anesthesiologist dermatologist cardiologist
  neurologist oncologist urologist podiatrist audiologist pharmacologist geologist statistician
  actuary auditor bookkeeper curator illustrator animator copywriter`;
/** Parts that complete a dotted credential ("Msc.Ed.", "M.Sc.") and count only inside one. */
const SEGMENTS = `ed sc a s b m d phil eng ing n c`;

const PRONOUNS = new Set(
  `she her hers herself he him his himself they them their theirs themself themselves ze zir
  zirs hir hirs xe xem xyr xyrs ey em eir fae faer it its any all ask none e`.split(/\s+/),
);

function keys(list: string): string[] {
  return list.split(/\s+/).filter((w) => w.length > 0).map((w) => w.replaceAll(".", ""));
}

const KIND = new Map<string, PostNominalKind>();
for (const k of keys(CREDENTIAL_WEAK)) KIND.set(k, "credential-weak");
for (const k of keys(CREDENTIAL)) KIND.set(k, "credential");
for (const k of keys(OCCUPATION)) KIND.set(k, "occupation");
for (const k of keys(SUFFIX_WEAK)) KIND.set(k, "suffix-weak");
for (const k of keys(SUFFIX)) KIND.set(k, "suffix");
KIND.set("v", "numeral-v");
const SEGMENT = new Set(keys(SEGMENTS));
const DOT = /\./g;
const MIGHT_BE_POST_NOMINAL = new KeyFilter(KIND.keys(), "all");

/** Lower case, periods removed. */
export function postNominalKey(word: string): string {
  return word.indexOf(".") >= 0 ? word.replace(DOT, "").toLowerCase() : word.toLowerCase();
}

/**
 * Suffixes that are also common given names, suffixes only when written as one: "Jun." (junior,
 * as German and older English write it) but not "Jun" ("Li Jun", "Kim Min Jun", "Nakamura Jun");
 * "VI" (the sixth) but not "Vi" (a Vietnamese given name: "Tran Vi", "Nguyen Thi Vi"); "II" but not
 * "Ii" (a Japanese surname).
 */
const NAME_LIKE_SUFFIXES = new Map<string, (word: string) => boolean>([
  ["jun", (word) => word.endsWith(".")],
  ["vi", (word) => word.startsWith("VI")],
  ["ii", (word) => word.startsWith("II")],
]);

export function postNominalKind(word: string): PostNominalKind | null {
  // not in the list, and no period to make it a dotted chain: no key to build
  if (!MIGHT_BE_POST_NOMINAL.mightHave(word) && word.indexOf(".") < 0) return null;
  const key = postNominalKey(word);
  const kind = KIND.get(key);
  if (kind) return NAME_LIKE_SUFFIXES.get(key)?.(word) === false ? null : kind;
  // "Msc.Ed.", "M.Sc.Ed.": dotted parts, all credential parts, one a real credential.
  const inner = word.indexOf(".");
  if (inner <= 0 || inner === word.length - 1) return null;
  let real = false;
  for (const part of word.toLowerCase().split(".")) {
    if (part.length === 0) continue;
    const k = KIND.get(part);
    if (k === "credential" || k === "credential-weak") real = true;
    else if (!SEGMENT.has(part)) return null;
  }
  return real ? "credential" : null;
}

/** A capital after the first letter: "EdD", "PhD", "MA" (a credential's spelling, not a name's). */
export function hasInnerCapital(text: string): boolean {
  const rest = text.slice(1);
  return rest !== rest.toLowerCase();
}

export function isCredentialKind(kind: PostNominalKind | null): boolean {
  return kind === "credential" || kind === "credential-weak" || kind === "occupation";
}

/** One to three letters, with a period (the last part may lack it): a part of "Ph. D.", "R. N.". */
const DOTTED_PART = /^\p{L}{1,3}\.$/u;
const LAST_PART = /^\p{L}{1,3}\.?$/u;

/**
 * How many words before `end` spell one credential with spaces between its dotted parts: "Ph. D.",
 * "R. N.", "M. B. A.", "Ed. D" (2 to 4 words, each of one to three letters and a period, the last
 * period optional; the longest such run); 0 when they do not. `texts(i)` gives the i-th word.
 */
export function spacedCredentialLength(texts: (i: number) => string | null, end: number): number {
  const last = texts(end - 1);
  if (last === null || !LAST_PART.test(last)) return 0;
  let key = postNominalKey(last);
  let longest = 0;
  for (let k = 2; k <= 4 && end - k >= 0; k++) {
    const part = texts(end - k);
    if (part === null || !DOTTED_PART.test(part)) break;
    key = postNominalKey(part) + key;
    const kind = KIND.get(key);
    if (kind === "credential" || kind === "credential-weak") longest = k;
  }
  return longest;
}

/**
 * Not a known credential, but written like one among credentials ("BSN, RN, LNCC"): capitals
 * (digits, hyphen, slash allowed), two to eight characters, at least two capital letters.
 */
export function looksLikeCredential(word: string): boolean {
  return CREDENTIAL_LIKE.test(word) && UPPER2.test(word);
}
const CREDENTIAL_LIKE = /^[A-Z][A-Z0-9/&-]{1,7}\.?$/;
const UPPER2 = /[A-Z].*[A-Z]/;

/** "she/her", "he/him", "they/them", "she/they", also "he/him/his". */
export function isPronounTag(word: string): boolean {
  const slash = word.indexOf("/");
  if (slash <= 0) return false;
  for (const part of word.toLowerCase().split("/")) {
    if (!PRONOUNS.has(part)) return false;
  }
  return true;
}

/**
 * Occupations of several words written after a name ("attorney at law", "atty. at law",
 * "associate broker"): keys as `postNominalKey` gives them (lower case, periods removed).
 */
export const TRAILING_PHRASES: readonly (readonly string[])[] = [
  ["attorney", "at", "law"],
  ["attorneys", "at", "law"],
  ["atty", "at", "law"],
  ["attys", "at", "law"],
  ["counselor", "at", "law"],
  ["associate", "broker"],
  ["broker", "associate"],
  ["managing", "broker"],
  ["principal", "broker"],
  ["designated", "broker"],
  ["real", "estate", "broker"],
  ["real", "estate", "agent"],
  ["realtor", "associate"],
  ["successor", "trustee"],
  ["co", "trustee"],
];

/**
 * A job title and its employer at the end of a name ("CEO at Acme Corp", "VP of Sales", "Founder CEO
 * at Acme"): occupations, then "at", "of" or "for" and one to four words. The length of the phrase
 * that ends at `end` and leaves at least `keep` words before it, or 0.
 */
export function employerPhraseLength(
  texts: (i: number) => string | null,
  end: number,
  keep: number,
): number {
  for (let at = end - 2; at >= keep + 1 && at >= end - 5; at--) {
    const connector = texts(at);
    if (connector === null || !EMPLOYER_CONNECTORS.has(connector.toLowerCase())) continue;
    let start = at;
    while (start - 1 >= keep) {
      const word = texts(start - 1);
      if (word === null || postNominalKind(word) !== "occupation") break;
      start--;
    }
    return start < at ? end - start : 0;
  }
  return 0;
}
const EMPLOYER_CONNECTORS: ReadonlySet<string> = new Set(["at", "of", "for"]);

/** The last words of the trailing phrases: most names end otherwise, and are done with one look. */
const PHRASE_ENDS = new Set(TRAILING_PHRASES.map((p) => p[p.length - 1]));
const MIGHT_END_PHRASE = new KeyFilter(PHRASE_ENDS, "all");

/** The length of the trailing phrase that ends at `end`, or 0. `texts(i)` gives the i-th word. */
export function trailingPhraseLength(texts: (i: number) => string | null, end: number): number {
  const last = texts(end - 1);
  if (last === null || !MIGHT_END_PHRASE.mightHave(last)) return 0;
  if (!PHRASE_ENDS.has(postNominalKey(last))) return 0;
  for (const phrase of TRAILING_PHRASES) {
    const n = phrase.length;
    if (end < n) continue;
    let match = true;
    for (let i = 0; i < n && match; i++) {
      const t = texts(end - n + i);
      match = t !== null && postNominalKey(t) === phrase[i];
    }
    if (match) return n;
  }
  return 0;
}

/** One letter, or letters each followed by a period: "S", "S.", "J.R.", "Ю.". */
export function isInitial(word: string): boolean {
  return INITIAL.test(word);
}
const INITIAL = /^(?:[\p{Lu}\p{Ll}]\.?|(?:[\p{Lu}\p{Ll}]\.)+(?:[\p{Lu}\p{Ll}]\.?)?)$/u;
