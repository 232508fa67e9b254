/**
 * Raw inputs of the classes of name the service must read (surname first, comma-inverted,
 * nicknames, credentials and suffixes, two surnames, Irish, Vietnamese…), with the answer it must
 * give (given, surname; `null` for a refusal). Written by hand, none taken from the dev set; read
 * through the whole service path (cleaning, the model, the rule) by
 * tests/name_parse_classes_test.ts. Kept in model/ beside the model-level golden cases.
 */
export interface GoldenInput {
  input: string;
  given: string | null;
  surname: string | null;
  /** The class it pins. */
  kind: string;
}

const g = (kind: string, input: string, given: string | null, surname: string | null) => ({
  kind,
  input,
  given,
  surname,
});

export const GOLDEN_INPUTS: GoldenInput[] = [
  // offices before a name and occupations after it
  g("office", "Senior Vice President Linda Marsh", "Linda", "Marsh"),
  g("office", "Ward Councillor Tom Byrne", "Tom", "Byrne"),
  g("office", "County Commissioner Linda Marsh", "Linda", "Marsh"),
  g("occupation", "Dr. Anna Weiss Pharmacist", "Anna", "Weiss"),
  g("occupation", "Paul Hendricks Architect AIA", "Paul", "Hendricks"),
  // credentials, degrees and occupations in every written form
  g("credential", "Orla Brannigan Ph. D.", "Orla", "Brannigan"),
  g("credential", "Orla Brannigan, Ph. D.", "Orla", "Brannigan"),
  g("credential", "Wendell Okafor R. N.", "Wendell", "Okafor"),
  g("credential", "Wendell Okafor, R. N.", "Wendell", "Okafor"),
  g("credential", "wendell okafor phd", "wendell", "okafor"),
  g("credential", "Wendell Okafor, cpa", "Wendell", "Okafor"),
  g("credential", "Priscilla Vane BSN, RN, LNCC", "Priscilla", "Vane"),
  g("credential", "Priscilla Vane, BSN, RN, LNCC", "Priscilla", "Vane"),
  g("credential", "Priscilla Vane MSN APRN FNP-BC", "Priscilla", "Vane"),
  g("credential", "Dorian Fairweather, Trustee", "Dorian", "Fairweather"),
  g("credential", "Dorian Fairweather Realtor", "Dorian", "Fairweather"),
  g("credential", "DORIAN FAIRWEATHER, REALTOR, GRI", "DORIAN", "FAIRWEATHER"),
  g("credential", "Dorian Fairweather, Broker", "Dorian", "Fairweather"),
  g("credential", "Dorian Fairweather atty at law", "Dorian", "Fairweather"),
  g("credential", "Dorian Fairweather, Attorney", "Dorian", "Fairweather"),
  g("credential", "Dorian Fairweather GRI", "Dorian", "Fairweather"),
  g("credential", "Fairweather, Dorian, Ed. D.", "Dorian", "Fairweather"),
  g("credential", "Wendell Okafor, NP-C", "Wendell", "Okafor"),
  g("credential", "Wendell Okafor, BCBA", "Wendell", "Okafor"),
  g("credential", "Okafor, Wendell, NCC", "Wendell", "Okafor"),
  g("credential", "Wendell Okafor mha", "Wendell", "Okafor"),
  g("credential", "Okafor, MA", "MA", "Okafor"),
  // a generational suffix inside a comma-inverted name
  g("suffix-inverted", "Fairweather, Jr. Dorian", "Dorian", "Fairweather"),
  g("suffix-inverted", "Okafor, III Wendell T.", "Wendell T.", "Okafor"),
  g("suffix-inverted", "Fairweather, Jun. Dorian", "Dorian", "Fairweather"),
  // suffixes that are also given names: a suffix only when written as one ("Jun.", "VI")
  g("suffix-name-like", "Dorian Fairweather Jun.", "Dorian", "Fairweather"),
  g("suffix-name-like", "Dorian Fairweather VI", "Dorian", "Fairweather"),
  g("suffix-name-like", "Wang Jun", "Jun", "Wang"),
  g("suffix-name-like", "Wang, Jun", "Jun", "Wang"),
  g("suffix-name-like", "Ishikawa Jun", "Jun", "Ishikawa"),
  g("suffix-name-like", "Park Min Jun", "Min Jun", "Park"),
  g("suffix-name-like", "Pham Vi", "Vi", "Pham"),
  g("suffix-name-like", "Pham Thi Vi", "Thi Vi", "Pham"),
  // credentials that are also names: dropped when written as a credential
  g("credential-name-like", "Dorian Fairweather EdD", "Dorian", "Fairweather"),
  g("credential-name-like", "Dorian Fairweather, Ed.D.", "Dorian", "Fairweather"),
  g("credential-name-like", "Edd Fairweather", "Edd", "Fairweather"),
  g("credential-name-like", "Okafor Edd", "Edd", "Okafor"),
  g("credential-name-like", "Fairweather, Edd", "Edd", "Fairweather"),
  g("credential-name-like", "Zhao, Ma", "Ma", "Zhao"),
  g("credential-name-like", "Fairweather, Dorian, MA", "Dorian", "Fairweather"),
  g("credential-name-like", "Fairweather, Dorian, Ma", "Dorian", "Fairweather"),
  g("credential-name-like", "Fairweather, Junior", "Junior", "Fairweather"),
  g("credential-name-like", "Xiaoling Cen", "Xiaoling", "Cen"),
  g("credential-name-like", "Dorian Fairweather, CEN", "Dorian", "Fairweather"),
  g("credential-name-like", "Bikash Kc", "Bikash", "Kc"),
  g("credential-name-like", "Dorian Fairweather KC", "Dorian", "Fairweather"),
  g("suffix-name-like", "Naomasa Ii", "Naomasa", "Ii"),
  g("suffix-name-like", "Dorian Fairweather II", "Dorian", "Fairweather"),
  // a comma-inverted surname that is also a title
  g("title-surname", "Mayor, Dorian", "Dorian", "Mayor"),
  g("title-surname", "Herr, Dorian", "Dorian", "Herr"),
  g("suffix-inverted", "Okafor, Sr. Wendell", "Wendell", "Okafor"),
  // Hungarian in native order, with and without diacritics
  g("hungarian", "Kovács Imre", "Imre", "Kovács"),
  g("hungarian", "Kovacs Imre", "Imre", "Kovacs"),
  g("hungarian", "Szabó Sándor", "Sándor", "Szabó"),
  g("hungarian", "Toth Laszlo", "Laszlo", "Toth"),
  g("hungarian", "Varga Ádám", "Ádám", "Varga"),
  g("hungarian", "Horváth Zsófia Anna", "Zsófia Anna", "Horváth"),
  g("hungarian", "Kertész Ádám", "Ádám", "Kertész"),
  g("hungarian", "Szekeres Imre", "Imre", "Szekeres"),
  // Vietnamese names of three or more words, either order
  g("vietnamese", "Nguyen Van Thanh", "Van Thanh", "Nguyen"),
  g("vietnamese", "Thanh Van Nguyen", "Thanh Van", "Nguyen"),
  g("vietnamese", "Tran Thi Mai", "Thi Mai", "Tran"),
  g("vietnamese", "Mai Thi Tran", "Mai Thi", "Tran"),
  g("vietnamese", "Nguyễn Thị Hồng Nhung", "Thị Hồng Nhung", "Nguyễn"),
  g("vietnamese", "Vo Quoc Bao", "Quoc Bao", "Vo"),
  g("vietnamese", "Quoc Bao Vo", "Quoc Bao", "Vo"),
  g("vietnamese", "THANH VAN NGUYEN", "THANH VAN", "NGUYEN"),
  g("vietnamese", "Thanh Văn Nguyễn", "Thanh Văn", "Nguyễn"),
  // a double-quoted nickname as the only given name
  g("nickname", '"Rocky" Fairweather', "Rocky", "Fairweather"),
  g("nickname", 'Mr. "Rocky" Fairweather', "Rocky", "Fairweather"),
  g("nickname", 'Fairweather, "Rocky"', "Rocky", "Fairweather"),
  g("nickname", "“Rocky” van der Berg", "Rocky", "van der Berg"),
  g("nickname", 'Dorian "Rocky" Fairweather', "Dorian Rocky", "Fairweather"),
  g("nickname", 'Dorian "Rocky"', null, null),
  // the same nickname in single quotes or brackets, alone before the surname
  g("nickname", "'Rocky' Fairweather", "Rocky", "Fairweather"),
  g("nickname", "‘Rocky’ Fairweather", "Rocky", "Fairweather"),
  g("nickname", "(Rocky) Fairweather", "Rocky", "Fairweather"),
  g("nickname", "(Mr.) Fairweather", null, null),
  // a nickname of two or three words in single quotes, as in double quotes
  g("nickname", "Dorian 'Rocky Road' Fairweather", "Dorian Rocky Road", "Fairweather"),
  g("nickname", "Dorian ‘Rocky Road’ Fairweather", "Dorian Rocky Road", "Fairweather"),
  // two surnames without particles (Iberian, Latin American), any case
  g("two-surnames", "Ricardo Montalvo Quiroga", "Ricardo", "Montalvo Quiroga"),
  g("two-surnames", "Alicia Bermúdez Peñaloza", "Alicia", "Bermúdez Peñaloza"),
  g("two-surnames", "RAFAEL SANDOVAL ARRIAGA", "RAFAEL", "SANDOVAL ARRIAGA"),
  g("two-surnames", "marta villalobos cienfuegos", "marta", "villalobos cienfuegos"),
  g("two-surnames", "José Luis Romero Paredes", "José Luis", "Romero Paredes"),
  g("two-surnames", "Gonzalo Echeverría Salcedo", "Gonzalo", "Echeverría Salcedo"),
  g("two-surnames", "Lucía Arrieta Montoya", "Lucía", "Arrieta Montoya"),
  g("two-surnames", "FERNANDO IBARRA ZAVALA", "FERNANDO", "IBARRA ZAVALA"),
  g("two-surnames", "beatriz olmedo santillán", "beatriz", "olmedo santillán"),
  g("two-surnames", "Ana Sofía Carvajal Urrutia", "Ana Sofía", "Carvajal Urrutia"),
  g("two-surnames", "Tomás Benavides Orozco", "Tomás", "Benavides Orozco"),
  g("two-surnames", "ESTEBAN QUIROGA BELTRÁN", "ESTEBAN", "QUIROGA BELTRÁN"),
  g("two-surnames", "rodrigo cárdenas villaseñor", "rodrigo", "cárdenas villaseñor"),
  // surname first: Chinese, Japanese, Korean romanised, Hungarian (more above)
  g("surname-first", "Zhou Jianguo", "Jianguo", "Zhou"),
  g("surname-first", "Guo Xiaoming", "Xiaoming", "Guo"),
  g("surname-first", "Zheng Haoyu", "Haoyu", "Zheng"),
  g("surname-first", "Yamaguchi Haruto", "Haruto", "Yamaguchi"),
  g("surname-first", "Nakamura Sakura", "Sakura", "Nakamura"),
  g("surname-first", "Choi Seung Hyun", "Seung Hyun", "Choi"),
  g("surname-first", "Molnár Zoltán", "Zoltán", "Molnár"),
  g("surname-first", "Balogh Krisztina", "Krisztina", "Balogh"),
  // all lower case
  g("lower-case", "priscilla ann vane", "priscilla ann", "vane"),
  g("lower-case", "wendell t. okafor", "wendell t.", "okafor"),
  g("lower-case", "dorian de la fuente", "dorian", "de la fuente"),
  g("lower-case", "okafor, wendell", "wendell", "okafor"),
  g("lower-case", "dr wendell okafor jr", "wendell", "okafor"),
  // Irish-language names: the surname's particle (Ó, Ní, Mac, Nic) and its mutated stem
  g("irish", "Aoife Ní Cheallaigh", "Aoife", "Ní Cheallaigh"),
  g("irish", "Seán Ó Súilleabháin", "Seán", "Ó Súilleabháin"),
  g("irish", "Niamh Nic Giolla Phádraig", "Niamh", "Nic Giolla Phádraig"),
  g("irish", "Ciarán Mac Cárthaigh", "Ciarán", "Mac Cárthaigh"),
  g("irish", "Orla Ni Bhriain", "Orla", "Ni Bhriain"),
  // a trailing comma, stray punctuation, mojibake: words kept as written, no inversion
  g("punctuation", "Dr.Dorian Fairweather", "Dorian", "Fairweather"),
  g("punctuation", "Mr. and Mrs. Dorian Fairweather", "Dorian", "Fairweather"),
  g("punctuation", "Dorian Fairweather,", "Dorian", "Fairweather"),
  g("punctuation", "Dorian Fairweather ,", "Dorian", "Fairweather"),
  g("punctuation", "Dorian / Fairweather", "Dorian", "Fairweather"),
  g("punctuation", "Dorian Fairweather;", "Dorian", "Fairweather"),
  g("punctuation", "Dorian Fairweather.", "Dorian", "Fairweather"),
  g("punctuation", "(Dorian Fairweather", "Dorian", "Fairweather"),
  g("punctuation", "Dorian_Fairweather", "Dorian", "Fairweather"),
  g("mojibake", "AndrÃ© Fairweather", "AndrÃ©", "Fairweather"),
  g("mojibake", "JosÃ© GarcÃ\u00ada", "JosÃ©", "GarcÃ\u00ada"),
  g("mojibake", "Å»aneta Kowalczyk", "Å»aneta", "Kowalczyk"),
  g("mojibake", "FranÃ§ois MÃ¼ller,", "FranÃ§ois", "MÃ¼ller"),
  g("mojibake", "Nguyá»…n Thá»‹ Lan", "Thá»‹ Lan", "Nguyá»…n"),
  g("mojibake", "Aoife NÃ\u00ad Cheallaigh", "Aoife", "NÃ\u00ad Cheallaigh"),
  g("mojibake", "Eoin Ã“ NÃ©ill", "Eoin", "Ã“ NÃ©ill"),
];
