/**
 * Romanised Chinese names written as two words, one of them a one-syllable Chinese surname and the
 * other a given name of two or three syllables written as one word ("Zhou Xiaoming", "Xiaoming
 * Zhou"): Chinese surnames are one syllable (the compound ones are known and excluded) and given
 * names of two syllables are written joined, so the words themselves say which is the surname,
 * whatever the order. Written for this repository: the syllable inventory is pinyin plus the usual
 * Wade-Giles and Cantonese spellings (the same inventory the name model's featurizer uses); the
 * surnames are the toneless pinyin of the one-character surnames in `cjk_surnames.ts` (derived once
 * with pinyin-pro, `ü` written `v`).
 */
import { asciiKeyHash, KeyFilter } from "./key_filter.ts";
import type { FixedReading } from "./cleaned_name.ts";

const SYLLABLES: ReadonlySet<string> = new Set(
  `
  a ai an ang ao au ba bai ban bao bei ben bi bian biao bie bin bing bo bu cai cang cao cen ceng
  cha chai chan chang chao chau che chen cheng cheung chi chia chiang chien chim chin ching chiu
  choi chong choo chou chow chu chua chun chung ci cong cui cun cuo da dai dan dang dao de deng di
  dian diao ding dong dou du duan dun duo e er fa fan fang fann fei fen feng fo fong foo fu fung
  gai gan gang gao ge geng goh gong gou gu guan guang gui guo ha hai han hang hao hau he heng
  heung ho hoh hok hon hong hou hsia hsiao hsieh hsu hsueh hu hua huai huan huang hui hun hung huo
  hwang jen ji jia jian jiang jiao jie jin jing jiu ju juan jun ka kai kam kan kang kao ke keung
  king ko kong koo kot kou ku kuai kuang kui kung kuo kwan kwok la lai lam lan lang lao lau law le
  lee lei leng leong leung lew li lian liang liao lim lin ling liu lo long loo lou lu luan lui lun
  lung luo lv ma mah mai man mang mao me mei men meng mi miao min ming miu mo mok mu mui na nai
  nan neng ng ngai ngan ngau ni nian nie ning niu nong nuo oh ong ou pak pan pang pau pei peng
  phua pi pin ping poon pu qi qian qiang qiao qin qing qiong qiu qu quan que ran rang rao ren reng
  rong rou ru ruan rui ruo sa sai san sang sen seng sha sham shan shang shao she shen sheng shi
  shih shou shu shuai shuang shue shui shum shun shuo si sit siu so song soon su suen sui sun sung
  suo sze ta tai tam tan tang tao tay teng teo tian tie tien tin ting to tong tou tsai tsang tsao
  tse tseng tso tsou tsuei tsui tu tuen tung tuo wan wang wei wen weng wo wong woo wu xi xia xian
  xiang xiao xie xin xing xiong xiu xu xuan xue xun ya yam yan yang yao yau ye yee yeh yen yeung
  yi yin ying yip yiu yong you young yu yuan yue yuen yun zai zan zang ze zeng zhai zhan zhang
  zhao zhe zhen zheng zhi zhong zhou zhu zhuan zhuang zhuo zi zong zou zu zuo
`.trim().split(/\s+/),
);

const SURNAMES: ReadonlySet<string> = new Set(
  `
  wang li zhang liu chen yang huang zhao wu zhou xu sun ma zhu hu guo he gao lin luo zheng liang
  xie song tang han feng deng cao peng zeng xiao tian dong yuan pan yu jiang cai du ye cheng su
  wei lv ding ren shen yao lu cui zhong tan fan jin shi liao jia xia fu fang bai zou meng xiong
  qin qiu yin xue yan duan lei hou long tao gu mao hao gong shao wan qian dai mo kong xiang chang
  wen kang niu ge xing an qi yi qiao pang ni zhuang nie yue zhai zhan ou geng guan lan jiao zuo
  gan bao ning shang shu ruan ke ji mei tong ling bi shan pei huo tu miao sheng qu weng ran you
  xin chai hua pu teng rao mou ai mu nong si zhuo jian che lian mai chu lou dou cen jing dang fei
  bu leng xi mi zong gui quan ying zang min gou bian luan sui diao sha rong kou sang lang zhen
  cong ao ming she chi zha kuang ju hui nan ban lao pi xian man hai kan qiang shuai piao zu ba zhi
  qing di ping suo xuan men yun lai chao rui que bo yong xiu tai hang na ru bin jie dan zan heng
  hong
`.trim().split(/\s+/),
);

const MIGHT_BE_SURNAME = new KeyFilter(SURNAMES, "keep");

const COMPOUND_SURNAMES: ReadonlySet<string> = new Set([
  "ouyang",
  "sima",
  "zhuge",
  "shangguan",
  "situ",
  "dongfang",
  "huangfu",
  "yuchi",
  "gongsun",
  "linghu",
  "murong",
  "xiahou",
]);

const LETTERS = /^[A-Za-z]+$/;

/** Low 16 bits of the FNV-1a hash of every syllable: a slice whose hash is not here is not one. */
const SYLLABLE_BITS = new Uint32Array(1 << 11); // a bit per 16-bit hash value
for (const s of SYLLABLES) {
  const h = asciiKeyHash(s, "keep");
  SYLLABLE_BITS[(h >>> 5) & 0x7ff] |= 1 << (h & 31);
}
const best = new Int32Array(19);

/** Fewest syllables of the inventory that spell the lower-case word exactly, 0 when none do. */
function pinyinSyllableCount(word: string): number {
  const n = word.length;
  if (n === 0 || n > 18) return 0;
  for (let i = 0; i <= n; i++) best[i] = 99;
  best[0] = 0;
  for (let i = 0; i < n; i++) {
    if (best[i] >= 99) continue;
    let h = 0x811c9dc5; // FNV-1a of word[i, j), as asciiKeyHash computes it
    for (let j = i + 1; j <= n && j <= i + 6; j++) {
      h = Math.imul(h ^ word.charCodeAt(j - 1), 0x01000193);
      if (
        best[i] + 1 < best[j] && (SYLLABLE_BITS[(h >>> 5) & 0x7ff] & (1 << (h & 31))) !== 0 &&
        SYLLABLES.has(word.slice(i, j))
      ) {
        best[j] = best[i] + 1;
      }
    }
  }
  return best[n] >= 99 ? 0 : best[n];
}

function isJoinedGivenName(word: string): boolean {
  const syllables = pinyinSyllableCount(word);
  return syllables >= 2 && syllables <= 3 && !SURNAMES.has(word) && !COMPOUND_SURNAMES.has(word);
}

/**
 * The reading of a two-word romanised Chinese name whose words tell the surname by themselves,
 * or null when they do not (both one syllable, unknown syllables, other scripts…).
 */
export function readPinyinName(words: readonly string[]): FixedReading | null {
  if (words.length !== 2) return null;
  // neither word a Chinese surname: no reading, without lower-casing either
  if (!MIGHT_BE_SURNAME.mightHave(words[0]) && !MIGHT_BE_SURNAME.mightHave(words[1])) return null;
  if (!LETTERS.test(words[0]) || !LETTERS.test(words[1])) return null;
  const [first, second] = [words[0].toLowerCase(), words[1].toLowerCase()];
  if (SURNAMES.has(first) && isJoinedGivenName(second)) return { order: "surname-first", split: 1 };
  if (SURNAMES.has(second) && isJoinedGivenName(first)) return { order: "given-first", split: 1 };
  return null;
}
