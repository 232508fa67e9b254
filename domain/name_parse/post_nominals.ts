/**
 * What may follow a name: generational suffixes, credentials and post-nominal letters, pronouns.
 * Keys are lower case with every period removed ("Ph.D." → "phd", "Jr." → "jr").
 *
 * - `suffix` / `credential`: dropped at the end of a name (and as a whole comma group).
 * - `suffix-weak` ("Senior", "Junior"): also surnames; dropped only when two name words remain.
 * - `credential-weak` ("MA", "MS", "BA", "DO", "PA"): also surnames ("Jack Ma"); dropped at the end
 *   only after a comma, written with periods ("M.A."), in capitals in a name that is not all
 *   capitals, or after another credential.
 * - `numeral-v` ("V"): a suffix or an initial; dropped only at the very end of a plain name.
 */
export type PostNominalKind =
  | "suffix"
  | "suffix-weak"
  | "numeral-v"
  | "credential"
  | "credential-weak";

const SUFFIX = `jr jnr jun sr snr ii iii iv vi vii viii 2nd 3rd 4th 5th 2d 3d`;
const SUFFIX_WEAK = `junior senior`;
const CREDENTIAL = `phd dphil md mba cpa esq esquire jd dds dmd rn lpn cfa clu cfp chfc lutc cpcu
  frcs frcp frcpc frcsc frcse mrcp mrcs mrcgp facs facp facc faap fache facog facep obe mbe cbe kbe
  dbe gbe kcb kcmg frs freng fba frse fmedsci mph msc bsc mbbs mbchb bchir bds dvm vmd pharmd psyd
  edd dsc scd llm lld llb mfa msw lcsw lmft lpc lcpc pmp cissp cisa cism rph dpt otr mhs msn dnp
  crnp aprn fnp pac mdiv thd dmin med mscs msee bsee pgeng dc qc kc cma cpim
  phr sphr shrm ret usn usmc usaf cfe cia cgma acca aca fca cga cpp cae rd ld cde ccrn mhsa mpa mph
  mpp mres mphil bpharm mpharm bvsc mrcvs ms.c msced frcpsych fracp fracs franzcp mbbch atp mmed
  faan fasa fasn fccp fesc fmed attorney`;
const CREDENTIAL_WEAK = `ma ms bs ba do pa pe od mp np ab sb sm am mre bsn be`;
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
for (const k of keys(SUFFIX_WEAK)) KIND.set(k, "suffix-weak");
for (const k of keys(SUFFIX)) KIND.set(k, "suffix");
KIND.set("v", "numeral-v");
const SEGMENT = new Set(keys(SEGMENTS));
const DOT = /\./g;

/** Lower case, periods removed. */
export function postNominalKey(word: string): string {
  return word.indexOf(".") >= 0 ? word.replace(DOT, "").toLowerCase() : word.toLowerCase();
}

export function postNominalKind(word: string): PostNominalKind | null {
  const kind = KIND.get(postNominalKey(word));
  if (kind) return kind;
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

export function isCredentialKind(kind: PostNominalKind | null): boolean {
  return kind === "credential" || kind === "credential-weak";
}

/** "she/her", "he/him", "they/them", "she/they", also "he/him/his". */
export function isPronounTag(word: string): boolean {
  const slash = word.indexOf("/");
  if (slash <= 0) return false;
  for (const part of word.toLowerCase().split("/")) {
    if (!PRONOUNS.has(part)) return false;
  }
  return true;
}

/** "attorney at law" written after a name. */
export const TRAILING_PHRASES: readonly (readonly string[])[] = [
  ["attorney", "at", "law"],
  ["attorney", "at", "law."],
];

/** One letter, or letters each followed by a period: "S", "S.", "J.R.", "Ю.". */
export function isInitial(word: string): boolean {
  return INITIAL.test(word);
}
const INITIAL = /^(?:[\p{Lu}\p{Ll}]\.?|(?:[\p{Lu}\p{Ll}]\.)+(?:[\p{Lu}\p{Ll}]\.?)?)$/u;
