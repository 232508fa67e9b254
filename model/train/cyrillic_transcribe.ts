/**
 * Rough practical transcription of English and German names into Russian Cyrillic, by spelling
 * rules (Johnson → Джонсон, Wilson → Уилсон, Hunter → Хантер; Schneider → Шнайдер, Zimmermann →
 * Циммерманн). Not a dictionary transcription (Brian comes out Бриан, not Брайан): it gives the
 * composer many names whose letters look like Western names written in Cyrillic, beside the
 * hand-written lists of `cyrillic_western.ts`.
 */
const VOWELS = new Set([..."aeiouy"]);
const isVowel = (c: string | undefined) => c !== undefined && VOWELS.has(c);

type Rule = [string, string | ((w: string, i: number) => string)];

const EN: Rule[] = [
  ["tch", "ч"],
  ["sch", "ш"],
  ["sh", "ш"],
  ["ch", "ч"],
  ["th", "т"],
  ["ph", "ф"],
  ["ck", "к"],
  ["gh", ""],
  ["wh", "у"],
  ["qu", "кв"],
  ["ee", "и"],
  ["ea", "и"],
  ["oo", "у"],
  ["ou", "ау"],
  ["ay", "эй"],
  ["ai", "эй"],
  ["oa", "о"],
  ["au", "о"],
  ["aw", "о"],
  ["ey", (w, i) => (i + 2 === w.length ? "и" : "эй")],
  ["kn", (_w, i) => (i === 0 ? "н" : "кн")],
  ["wr", (_w, i) => (i === 0 ? "р" : "ур")],
  ["a", "а"],
  ["b", "б"],
  ["c", (w, i) => ("eiy".includes(w[i + 1] ?? "") ? "с" : "к")],
  ["d", "д"],
  ["e", (w, i) => (i === 0 ? "э" : i === w.length - 1 && w.length > 3 ? "" : "е")],
  ["f", "ф"],
  ["g", "г"],
  ["h", (w, i) => (isVowel(w[i - 1]) && !isVowel(w[i + 1]) ? "" : "х")],
  ["i", "и"],
  ["j", "дж"],
  ["k", "к"],
  ["l", "л"],
  ["m", "м"],
  ["n", "н"],
  ["o", "о"],
  ["p", "п"],
  ["q", "к"],
  ["r", "р"],
  ["s", "с"],
  ["t", "т"],
  [
    "u",
    (w, i) => (i > 0 && !isVowel(w[i + 1]) && !isVowel(w[i + 2]) && w[i + 2] ? "а" : "у"),
  ],
  ["v", "в"],
  ["w", "у"],
  ["x", "кс"],
  ["y", (w, i) => (i === 0 && isVowel(w[1]) ? "й" : "и")],
  ["z", "з"],
];

const DE: Rule[] = [
  ["tsch", "ч"],
  ["sch", "ш"],
  ["ch", "х"],
  ["ck", "к"],
  ["tz", "ц"],
  ["ph", "ф"],
  ["th", "т"],
  ["qu", "кв"],
  ["ei", "ай"],
  ["ey", "ай"],
  ["ai", "ай"],
  ["eu", "ой"],
  ["äu", "ой"],
  ["ie", "и"],
  ["sp", (_w, i) => (i === 0 ? "шп" : "сп")],
  ["st", (_w, i) => (i === 0 ? "шт" : "ст")],
  ["a", "а"],
  ["ä", "е"],
  ["b", "б"],
  ["c", (w, i) => ("eiy".includes(w[i + 1] ?? "") ? "ц" : "к")],
  ["d", "д"],
  ["e", (_w, i) => (i === 0 ? "э" : "е")],
  ["f", "ф"],
  ["g", "г"],
  ["h", (w, i) => (isVowel(w[i - 1]) ? "" : "х")],
  ["i", "и"],
  ["j", "й"],
  ["k", "к"],
  ["l", "л"],
  ["m", "м"],
  ["n", "н"],
  ["o", "о"],
  ["ö", "ё"],
  ["p", "п"],
  ["r", "р"],
  ["s", (w, i) => (isVowel(w[i + 1]) && (i === 0 || isVowel(w[i - 1])) ? "з" : "с")],
  ["ß", "сс"],
  ["t", "т"],
  ["u", "у"],
  ["ü", "ю"],
  ["v", "ф"],
  ["w", "в"],
  ["x", "кс"],
  ["y", "и"],
  ["z", "ц"],
];

function transcribe(word: string, rules: Rule[]): string | null {
  const w = word.toLowerCase();
  if (!/^[a-zäöüß]+$/.test(w)) return null;
  let out = "";
  let i = 0;
  while (i < w.length) {
    const rule = rules.find(([from]) => w.startsWith(from, i));
    if (!rule) return null;
    const [from, to] = rule;
    out += typeof to === "string" ? to : to(w, i);
    i += from.length;
  }
  return out.length < 2 ? null : out[0].toUpperCase() + out.slice(1);
}

/** An English name in Cyrillic letters, or null for a word these rules do not spell. */
export function transcribeEnglish(word: string): string | null {
  return transcribe(word, EN);
}

/** A German name in Cyrillic letters, or null for a word these rules do not spell. */
export function transcribeGerman(word: string): string | null {
  return transcribe(word, DE);
}
