/**
 * Small lists the project writes itself: closed classes (particles, the usual romanised
 * CJK/Vietnamese surnames) and romanised Arabic names. Ordered roughly by frequency; the
 * composer samples with a Zipf-like weight by rank.
 */

/** Chinese surnames in pinyin, most frequent first, with common non-pinyin spellings. */
export const ZH_SURNAMES: [string, string[]][] = [
  ["Wang", ["Wong", "Ong"]],
  ["Li", ["Lee", "Lei"]],
  ["Zhang", ["Chang", "Cheung", "Teo"]],
  ["Liu", ["Lau", "Lew"]],
  ["Chen", ["Chan", "Tan", "Chin"]],
  ["Yang", ["Yeung", "Young"]],
  ["Huang", ["Wong", "Hwang", "Ng"]],
  ["Zhao", ["Chao", "Chiu"]],
  ["Wu", ["Ng", "Woo", "Goh"]],
  ["Zhou", ["Chow", "Chou", "Chau"]],
  ["Xu", ["Hsu", "Tsui", "Hui"]],
  ["Sun", ["Suen", "Soon"]],
  ["Ma", ["Mah"]],
  ["Zhu", ["Chu", "Choo"]],
  ["Hu", ["Woo", "Oh"]],
  ["Guo", ["Kwok", "Kuo"]],
  ["He", ["Ho", "Hoh"]],
  ["Gao", ["Ko", "Kao"]],
  ["Lin", ["Lam", "Lim"]],
  ["Luo", ["Law", "Lo"]],
  ["Zheng", ["Cheng", "Chang", "Tay"]],
  ["Liang", ["Leung", "Leong"]],
  ["Xie", ["Tse", "Hsieh", "Chia"]],
  ["Song", ["Sung"]],
  ["Tang", ["Tong"]],
  ["Han", ["Hon"]],
  ["Feng", ["Fung"]],
  ["Deng", ["Tang", "Teng"]],
  ["Cao", ["Tso", "Tsao"]],
  ["Peng", ["Pang"]],
  ["Zeng", ["Tsang", "Tseng"]],
  ["Xiao", ["Siu", "Hsiao"]],
  ["Tian", ["Tin", "Tien"]],
  ["Dong", ["Tung"]],
  ["Yuan", ["Yuen"]],
  ["Pan", ["Poon", "Phua"]],
  ["Yu", ["Yue", "Yee", "Yue"]],
  ["Jiang", ["Keung", "Chiang"]],
  ["Cai", ["Choi", "Tsai", "Chua"]],
  ["Du", ["To", "Tu"]],
  ["Ye", ["Yip", "Yeh"]],
  ["Cheng", ["Ching"]],
  ["Su", ["So"]],
  ["Wei", ["Ngai"]],
  ["Lu", ["Lo", "Lui", "Loo"]],
  ["Ding", ["Ting"]],
  ["Ren", ["Yam", "Jen"]],
  ["Shen", ["Shum", "Sham"]],
  ["Yao", ["Yiu"]],
  ["Cui", ["Tsui", "Tsuei"]],
  ["Zhong", ["Chung"]],
  ["Tan", ["Tam"]],
  ["Fan", ["Fann"]],
  ["Jin", ["Kam", "King"]],
  ["Shi", ["Sze", "Shih"]],
  ["Liao", ["Liu"]],
  ["Jia", ["Ka"]],
  ["Xia", ["Ha", "Hsia"]],
  ["Fu", ["Foo"]],
  ["Fang", ["Fong"]],
  ["Bai", ["Pak"]],
  ["Zou", ["Chau", "Tsou"]],
  ["Meng", ["Mang"]],
  ["Xiong", ["Hung"]],
  ["Qin", ["Chun", "Chin"]],
  ["Qiu", ["Yau", "Chiu"]],
  ["Yin", ["Yan"]],
  ["Xue", ["Sit", "Hsueh"]],
  ["Yan", ["Ngan", "Yen"]],
  ["Duan", ["Tuen"]],
  ["Lei", ["Lui"]],
  ["Hou", ["Hau"]],
  ["Long", ["Lung"]],
  ["Tao", ["To"]],
  ["Gu", ["Koo", "Ku"]],
  ["Mao", ["Mo"]],
  ["Hao", ["Hok"]],
  ["Gong", ["Kung"]],
  ["Shao", ["Siu"]],
  ["Wan", ["Man"]],
  ["Qian", ["Chin", "Chien"]],
  ["Dai", ["Tai"]],
  ["Mo", ["Mok"]],
  ["Kong", ["Hung"]],
  ["Xiang", ["Heung"]],
  ["Chang", ["Cheung"]],
  ["Lai", ["Lai"]],
  ["Wen", ["Man"]],
  ["Niu", ["Ngau"]],
  ["Kang", ["Hong"]],
  ["Guan", ["Kwan"]],
  ["Ou", ["Au"]],
  ["Bao", ["Pau"]],
  ["Zhuang", ["Chong"]],
  ["Zhan", ["Chim"]],
  ["Lou", ["Lau"]],
  ["Mei", ["Mui"]],
  ["Ge", ["Kot"]],
  ["Shu", ["Shue"]],
  ["Hong", ["Hung"]],
];
/** Chinese compound surnames (pinyin). */
export const ZH_COMPOUND_SURNAMES = [
  "Ouyang",
  "Sima",
  "Zhuge",
  "Shangguan",
  "Situ",
  "Dongfang",
  "Huangfu",
  "Yuchi",
  "Gongsun",
  "Linghu",
  "Murong",
  "Xiahou",
];

/** Korean surnames: usual romanisations (first is the most common spelling). */
export const KO_SURNAMES: [string, string[]][] = [
  ["김", ["Kim", "Gim"]],
  ["이", ["Lee", "Yi", "Rhee", "Yee"]],
  ["박", ["Park", "Pak", "Bak"]],
  ["최", ["Choi", "Choe", "Chae"]],
  ["정", ["Jung", "Jeong", "Chung", "Jeung"]],
  ["강", ["Kang", "Gang"]],
  ["조", ["Cho", "Jo", "Joe"]],
  ["윤", ["Yoon", "Yun"]],
  ["장", ["Jang", "Chang"]],
  ["임", ["Lim", "Im", "Rim"]],
  ["한", ["Han"]],
  ["오", ["Oh", "O"]],
  ["서", ["Seo", "Suh", "Sur"]],
  ["신", ["Shin", "Sin"]],
  ["권", ["Kwon", "Gwon"]],
  ["황", ["Hwang"]],
  ["안", ["Ahn", "An"]],
  ["송", ["Song"]],
  ["류", ["Ryu", "Yoo", "Yu"]],
  ["전", ["Jeon", "Chun", "Jun"]],
  ["홍", ["Hong"]],
  ["고", ["Ko", "Go", "Koh"]],
  ["문", ["Moon", "Mun"]],
  ["양", ["Yang"]],
  ["손", ["Son", "Sohn"]],
  ["배", ["Bae", "Pae"]],
  ["백", ["Baek", "Paik", "Paek"]],
  ["허", ["Heo", "Huh", "Hur"]],
  ["유", ["Yoo", "Yu"]],
  ["남", ["Nam"]],
  ["심", ["Shim", "Sim"]],
  ["노", ["Noh", "Roh", "No"]],
  ["하", ["Ha"]],
  ["곽", ["Kwak", "Gwak"]],
  ["성", ["Sung", "Seong"]],
  ["차", ["Cha"]],
  ["주", ["Joo", "Ju"]],
  ["우", ["Woo", "U"]],
  ["구", ["Koo", "Ku", "Gu"]],
  ["민", ["Min"]],
  ["나", ["Na", "Ra"]],
  ["진", ["Jin", "Chin"]],
  ["지", ["Ji", "Chi"]],
  ["엄", ["Eom", "Um", "Uhm"]],
  ["채", ["Chae"]],
  ["원", ["Won"]],
  ["천", ["Cheon", "Chun"]],
  ["방", ["Bang", "Pang"]],
  ["공", ["Kong", "Gong"]],
  ["현", ["Hyun", "Hyeon"]],
  ["변", ["Byun", "Byeon"]],
  ["염", ["Yeom", "Yum"]],
  ["여", ["Yeo", "Yuh"]],
  ["추", ["Choo", "Chu"]],
  ["도", ["Do", "Doh"]],
  ["석", ["Seok", "Suk"]],
  ["선", ["Sun", "Seon"]],
  ["설", ["Seol", "Sul"]],
  ["마", ["Ma"]],
  ["길", ["Gil", "Kil"]],
  ["연", ["Yeon", "Yun"]],
  ["위", ["Wi", "Wee"]],
  ["표", ["Pyo"]],
  ["명", ["Myung", "Myeong"]],
  ["기", ["Ki", "Gi"]],
  ["반", ["Ban", "Pan"]],
  ["왕", ["Wang"]],
  ["금", ["Keum", "Geum"]],
  ["옥", ["Ok"]],
  ["육", ["Yook", "Yuk"]],
  ["인", ["In"]],
  ["맹", ["Maeng"]],
  ["제", ["Je"]],
  ["모", ["Mo"]],
  ["탁", ["Tak"]],
  ["국", ["Kook", "Guk"]],
  ["어", ["Eo"]],
  ["은", ["Eun"]],
  ["편", ["Pyeon"]],
  ["용", ["Yong"]],
  ["남궁", ["Namgung", "Namkoong"]],
  ["황보", ["Hwangbo"]],
  ["제갈", ["Jegal"]],
  ["선우", ["Seonwoo", "Sunwoo"]],
  ["독고", ["Dokgo"]],
];

/** Vietnamese surnames with diacritics, most frequent first. */
export const VI_SURNAMES = [
  "Nguyễn",
  "Trần",
  "Lê",
  "Phạm",
  "Hoàng",
  "Huỳnh",
  "Phan",
  "Vũ",
  "Võ",
  "Đặng",
  "Bùi",
  "Đỗ",
  "Hồ",
  "Ngô",
  "Dương",
  "Lý",
  "Đinh",
  "Đào",
  "Trịnh",
  "Mai",
  "Trương",
  "Lương",
  "Lâm",
  "Tô",
  "Hà",
  "Cao",
  "Châu",
  "Tạ",
  "Đoàn",
  "Vương",
  "Tăng",
  "Phùng",
  "Quách",
  "Kiều",
  "Văn",
  "Thái",
  "La",
  "Diệp",
  "Lưu",
  "Chu",
];
/** Vietnamese middle names (given block, usually second word). */
export const VI_MIDDLES = [
  "Văn",
  "Thị",
  "Hữu",
  "Đức",
  "Minh",
  "Thanh",
  "Quốc",
  "Ngọc",
  "Xuân",
  "Hoàng",
  "Công",
  "Đình",
  "Kim",
  "Thu",
  "Quang",
  "Trung",
  "Bảo",
  "Gia",
  "Anh",
  "Hồng",
  "Tuấn",
  "Như",
];

/** Romanised Arabic given names (common transliterations). */
export const AR_GIVEN = (
  "Mohammed Muhammad Mohamed Mohammad Ahmed Ahmad Ali Omar Umar Khalid Khaled Youssef Yusuf Yousef " +
  "Ibrahim Abdullah Abdallah Hassan Hasan Hussein Husain Mahmoud Mahmud Mustafa Mostafa Tariq Tarek " +
  "Karim Kareem Samir Sami Nabil Walid Waleed Faisal Fahad Fahd Saeed Said Saad Sultan Salman Hamza " +
  "Bilal Adel Adil Amir Ameer Anas Ayman Bassam Fadi Fares Faris Hadi Haitham Hamid Hisham Imad " +
  "Issa Jamal Jamil Kamal Majid Majed Marwan Mazen Nasser Nasir Osama Usama Rami Rashid Riyad Riad " +
  "Salah Salim Saleh Tamer Wael Yahya Yasser Yasir Ziad Zaid Zayed Abdulaziz Abdulrahman Abdelkader " +
  "Mansour Nour Noor Othman Uthman Qasim Rayan Ammar Emad Ehab Essam Ashraf Hazem Tawfiq Mounir " +
  "Fatima Fatma Aisha Aicha Maryam Mariam Khadija Zainab Zaynab Layla Leila Noura Nora Huda Hoda " +
  "Amal Amina Aminah Asma Dalia Dina Farah Ghada Hana Hanan Iman Eman Jamila Lina Lubna Mona Muna " +
  "Nadia Najwa Rana Rania Reem Rim Salma Samira Sara Sawsan Yasmin Yasmine Zahra Zeinab Nour Rasha " +
  "Heba Hiba Manal Maha Nisreen Rawan Shaima Suha Wafaa Yara"
).split(" ");
/** Romanised Arabic family names (without the article). */
export const AR_FAMILY = (
  "Haddad Khoury Khouri Hashimi Saud Rashid Mansour Nasser Hamdan Qasimi Nahyan Maktoum Thani Sabah " +
  "Khalifa Zahrani Ghamdi Otaibi Qahtani Shehri Dosari Harbi Mutairi Anazi Shammari Juhani Malki " +
  "Amri Zahrani Faisal Saleh Hassan Hussein Ahmed Abbas Aziz Bakr Farouk Hakim Hamid Ibrahim " +
  "Jaber Jabari Kassem Kassab Khalil Masri Najjar Nassar Sabbagh Saleh Shaheen Tamimi Zein Zoubi " +
  "Sharif Sayed Sayyid Shami Halabi Baghdadi Tikriti Hariri Jumblatt Karam Khatib Awad Aoun Daher " +
  "Ghanem Habib Hajj Issa Kanaan Maalouf Nakhleh Rizk Salameh Tannous Touma Yazbek Zaki Mahfouz " +
  "Barghouti Darwish Hamad Obeid Qureshi Rahman Siddiqui Suleiman Sulaiman Yousef Mubarak Sadat " +
  "Nasrallah Hijazi Husseini Jaziri Kuwari Marzouki Mekki Saadi Shamsi Suwaidi Zarooni Hammadi " +
  "Benali Bouazizi Belkacem Benjelloun Cherkaoui Alaoui Idrissi Tazi Fassi Bennani Chraibi Lahlou"
).split(" ");

/** Portuguese surname suffixes that belong to the surname block. */
export const PT_SUFFIX = ["Filho", "Neto", "Sobrinho", "Júnior"];

/** German / Dutch / French / Italian / Spanish / Portuguese particles with weights. */
export const PARTICLES_BY_ORIGIN: Record<string, [string, number][]> = {
  nl: [
    ["van", 10],
    ["van der", 6],
    ["van den", 4],
    ["van de", 3],
    ["de", 5],
    ["den", 1],
    ["ter", 1],
    ["ten", 1],
    ["van 't", 0.3],
    ["op den", 0.3],
  ],
  de: [["von", 10], ["von der", 2], ["zu", 1], ["von und zu", 0.3], ["vom", 0.5]],
  fr: [["de", 8], ["du", 4], ["le", 3], ["la", 1], ["de la", 3], ["des", 1], ["d'", 2]],
  it: [["di", 5], ["de", 4], ["da", 2], ["del", 3], ["della", 2], ["lo", 0.5], ["la", 0.5]],
  es: [["de", 6], ["del", 3], ["de la", 3], ["de los", 1], ["de las", 0.3]],
  pt: [["da", 6], ["de", 5], ["do", 3], ["dos", 3], ["das", 1]],
  en: [["Mc", 0.5], ["Mac", 0.3], ["St.", 0.5], ["O'", 0.2]],
};

/** Japanese romaji syllables (Hepburn) for the syllable feature. */
export const JA_SYLLABLES = (
  "a i u e o ka ki ku ke ko sa shi su se so ta chi tsu te to na ni nu ne no ha hi fu he ho ma mi mu " +
  "me mo ya yu yo ra ri ru re ro wa n ga gi gu ge go za ji zu ze zo da de do ba bi bu be bo pa pi pu " +
  "pe po kya kyu kyo sha shu sho cha chu cho nya nyu nyo hya hyu hyo mya myu myo rya ryu ryo gya " +
  "gyu gyo ja ju jo bya byu byo pya pyu pyo ō ū"
).split(" ");

/** Extra Hungarian surnames (common ones beyond faker's hu list). */
export const HU_SURNAMES_EXTRA = (
  "Nagy Kovács Tóth Szabó Horváth Varga Kiss Molnár Németh Farkas Balogh Papp Takács Juhász Lakatos " +
  "Mészáros Oláh Simon Rácz Fekete Szilágyi Török Fehér Balázs Gál Kis Szűcs Kocsis Orsós Pintér " +
  "Fodor Szalai Sipos Magyar Lukács Gulyás Biró Király Katona László Jakab Bogdán Balog Sándor Boros " +
  "Fazekas Kelemen Antal Orosz Somogyi Fülöp Veres Budai Vincze Hegedűs Deák Pap Bálint Illés Vass " +
  "Pál Szőke Fábián Vörös Lengyel Bognár Bodnár Jónás Szücs Hajdu Halász Máté Székely Gáspár Kozma " +
  "Pásztor Bakos Dudás Major Virág Hegyi Orbán Barta Márton Sárközi Soós " +
  // more common surnames: occupations (Ács, Asztalos, Kertész, Szakács), colours and traits
  // (Barna, Ősz, Kövér), peoples (Kun, Tatár, Szász), places with -i / -y (Pataki, Szegedi, Győri)
  "Ács Albert Asztalos Bakó Balla Bánki Bányai Barabás Baranyi Baráth Bárány Bartos Bencze Benkő " +
  "Berecz Berkes Bíró Bodó Bódi Bokor Borbély Borsos Bozsó Buzás Czakó Csákó Csányi Csapó Császár " +
  "Csatári Csendes Csonka Csordás Csizmadia Dankó Dávid Dobos Domokos Dózsa Egri Elek Erdélyi " +
  "Erdős Fábri Faragó Fehérvári Fejes Fenyvesi Ferenczi Forgács Földes Gaál Gergely Gombos " +
  "Gulácsi Győri Gyenes Györfi Gyurkó Hadnagy Halmi Hamar Hankó Hegedüs Herczeg Hevesi Hidvégi " +
  "Hollósi Huszár Ilyés Jancsó Jenei Jobbágy Józsa Juhos Kádár Kalmár Kántor Kardos Kása Kecskés " +
  "Kerekes Kertész Keszthelyi Kincses Komáromi Kondor Kósa Koszta Kozák Kövér Krizsán Kulcsár Kun " +
  "Lakos Lázár Lendvai Lőrincz Lugosi Madarász Makai Makó Marosi Mátyás Medve Mester Mészöly " +
  "Mihály Miklós Mohácsi Molnos Móricz Nádasdi Nemes Nyári Nyitrai Ősz Pálfi Pálffy Pataki " +
  "Pongrácz Pósa Puskás Radnai Rákosi Réti Révész Rigó Rozsnyai Sárosi Sebestyén Sinka Solymosi " +
  "Sólyom Somlai Sütő Szakács Szalay Szántó Szarka Szász Szekeres Szendrei Szénási Szépe Szigeti " +
  "Szőllősi Szombathelyi Tamási Tarnai Tatár Temesi Teleki Tímár Tompa Turi Újvári Ungvári " +
  "Vadász Vajda Valkó Varjú Vas Vásárhelyi Végh Vida Vígh Villányi Virágh Vitéz Zalai Zámbó " +
  "Zentai Zsigmond Zsoldos Bakonyi Bihari Borsodi Debreceni Szegedi Pécsi Tolnai Baranyai Kassai " +
  "Váradi Kolozsvári Aradi Nógrádi Mezei Erdei Pusztai Halasi Kalocsai Soproni Szabados Bozó Barna " +
  "Rózsa Bagi Bencsik Bérczi Bolla Czeglédi Dénes Dombi Füredi Gyulai Hódi Jakus Kollár Komlósi " +
  "Kónya Kormos Kurucz Lantos Magyari Mándoki Máthé Mezey Oravecz Polgár Rostás Sallai Somodi " +
  "Szabolcsi Szeles Ujhelyi Vámos Vince"
).split(" ");

/**
 * The most common Hungarian given names, most frequent first (the Central Statistical Office's
 * counts over the whole population: László, István, József… and Mária, Erzsébet, Katalin…); the
 * composer draws Hungarian given names with a Zipf weight by rank, so "Péter" is mostly a given
 * name, as it is in Hungary, though it is a surname too.
 */
export const HU_GIVEN_MEN = (
  "László István József János Zoltán Sándor Gábor Ferenc Attila Péter Tamás Zsolt Tibor András " +
  "Csaba Imre Lajos György Balázs Róbert Mihály Béla Krisztián Dávid Ádám Dániel Norbert Károly " +
  "Gyula Márk Szabolcs Bence Richárd Máté Pál Viktor Roland Levente Gergely Miklós Antal Árpád " +
  "Kristóf Jenő Dezső Géza Ernő Endre Martin Bálint"
).split(" ");
export const HU_GIVEN_WOMEN = (
  "Mária Erzsébet Katalin Éva Ilona Anna Zsuzsanna Margit Judit Ágnes Andrea Erika Krisztina " +
  "Ildikó Irén Eszter Julianna Edit Gabriella Szilvia Anita Mónika Enikő Tímea Rozália Magdolna " +
  "Viktória Piroska Beáta Nikolett Marianna Zsófia Hajnalka Dóra Klára Melinda Csilla Veronika " +
  "Brigitta Renáta Gizella Tünde Orsolya Rita Petra Boglárka Anikó Réka Lilla Kitti"
).split(" ");

/**
 * Irish-language names (no npm package lists them; faker's en_IE has none). Given names in their
 * Irish spelling, and surname stems as written after Ó (Ní for a woman) or Mac (Nic): the family
 * names of the commonest Irish surnames (Ó Ceallaigh for Kelly, Mac Cárthaigh for McCarthy).
 * `irishSurname` writes the woman's form with its initial mutation.
 */
export const GA_GIVEN_FEMALE = (
  "Aoife Siobhán Niamh Caoimhe Saoirse Róisín Aisling Clodagh Gráinne Méabh Órla Nuala Bríd " +
  "Máire Eibhlín Sinéad Deirdre Úna Éabha Ailbhe Clíona Fionnuala Muireann Síle Treasa Áine " +
  "Brídín Eimear Laoise Ríona"
).split(" ");
export const GA_GIVEN_MALE = (
  "Seán Pádraig Ciarán Oisín Cathal Colm Dónal Eoin Fionn Diarmuid Tadhg Ruairí Cian Darragh " +
  "Séamus Conchúr Liam Éamonn Peadar Micheál Tomás Cormac Niall Donncha Lorcán Cillian Feargal " +
  "Caoimhín Breandán Ultán"
).split(" ");
export const GA_STEMS_O = (
  "Ceallaigh Súilleabháin Briain Néill Dochartaigh Murchú Sé Conaill Dónaill Gallchóir Duibhir " +
  "Tuathail Flaithearta Ríordáin Laoire Muirí Cinnéide Cuinn Maoláin Ceallacháin Donnchadha " +
  "Floinn Broin Fearghail Gráda Máille Dálaigh Caoimh Catháin Coileáin Faoláin Riain Cearbhaill " +
  "Tuama Aodha Eadhra Uiginn Mórdha Baoill Domhnaill Ciardha Fiaich"
).split(" ");
export const GA_STEMS_MAC = (
  "Cárthaigh Mathúna Giolla_Phádraig Aodha Suibhne Diarmada Craith Lochlainn Con_Mara Gabhann " +
  "Domhnaill Grianna Cionnaith Aonghusa Amhlaoibh Giolla_Bhríde Giolla_Eoin Fhlannchaidh"
).split(" ").map((s) => s.replace(/_/g, " "));

/**
 * Chinese names as Singapore, Malaysia and Hong Kong write them: surnames and given-name syllables
 * in Hokkien, Teochew, Hakka and Cantonese spellings ("Tan Boon Seng", "Chan Tai Man", "Lim Siew
 * Ling"), which pinyin lists do not hold. From general knowledge, commonest first (none from the
 * dev set); the given names are two syllables (or one), written apart, hyphenated or joined.
 */
export const ZH_SOUTH_SURNAMES = (
  "Tan Lim Lee Ng Ong Wong Goh Chua Chan Koh Teo Ang Yeo Tay Ho Low Toh Sim Chong Chia Leong Foo " +
  "Seah Quek Lau Cheung Leung Yip Kwok Tsang Fung Chow Lam Tse Yeung Mak Poon Siu Choi Yuen Hui " +
  "Khoo Teh Ooi Lai Heng Neo Pang Soh Tham Wee Yap Loh Kang Chin Choo Liew Lew Yong Tung Kwan " +
  "Fong Choy Au Ip Tsui Tong Cheong Lok Chiu Chau Kong Tai Chee Hew Kee Woon Gan Lum Mok"
).split(" ");
export const ZH_SOUTH_GIVEN = (
  "Ah Boon Chee Chin Choon Chong Eng Geok Hock Hui Kah Keng Kheng Kok Kwee Lay Leng Lian Meng Mui " +
  "Peng Poh Seng Siew Siok Soon Swee Tiong Wee Yong Yew Kwan Wai Man Ka Chi Kin Hoi Shing Yiu Kit " +
  "Fai Keung Ming Hong Wah Yee Ling Beng Huat Chuan Guan Hwee Jin Kiat Kuan Leong Liang Loong Mei " +
  "Ngee Bee Gek Hin Hoe Hoon Kai Kee Kian Kim Koon Kuen Lai Mun Nam Pui Sai Sau Sheng Shun Siang " +
  "Sin Tat Teck Tee Tin Tuck Wan Weng Wing Yan Yau Yin Yuen Yuk Chun Fook Hing Kwong Lok Ping Sum " +
  "Tak Tsz Ying Yat Hei Lun"
).split(" ");

/**
 * Persian names as Iranian researchers and professionals write them in Latin letters: given names
 * in their usual spellings ("Hossein", "Hosein"), the prefixes of compound given names ("Mohammad
 * Reza", "Ali Akbar", "Gholam Hossein", often joined: "Alireza") and of the Sayyid title that is
 * written as part of the given name ("Seyed Ali", "Seyedeh Maryam"); surnames, the words that
 * follow a surname as part of it ("Sadeghi Nejad", "Rahimi-Moghaddam", "Ghorbani Pour") and the
 * place names (nisba) that form a second surname ("Hashemi Rafsanjani", "Kazemi Yazdi"). From
 * general knowledge, commonest first (none from the dev set).
 */
export const FA_GIVEN_MALE = (
  "Mohammad Ali Hossein Reza Mehdi Hassan Amir Ahmad Abbas Mahmoud Hamid Saeed Javad Majid Mohsen " +
  "Morteza Mostafa Masoud Hadi Vahid Ebrahim Akbar Hamed Ehsan Mojtaba Iman Omid Behzad Farhad " +
  "Behrouz Kourosh Dariush Babak Arash Nima Navid Pouya Peyman Payam Sina Kaveh Ramin Siamak " +
  "Shahram Bahram Farshid Jalal Kamran Esmaeil Yousef Ghasem Karim Rasoul Nasser Sadegh Kazem " +
  "Bagher Taghi Jafar Mansour Aref Armin Arman Arsalan Ashkan Afshin Bardia Bijan Erfan Farid " +
  "Farzad Fariborz Fereydoun Hooman Houshang Hesam Hojjat Jamshid Jahangir Kambiz Kamyar Keyvan " +
  "Khosrow Kiarash Kianoush Mani Manouchehr Mazyar Mehran Mehrdad Meysam Milad Nader Pedram " +
  "Parviz Pejman Rahim Rostam Saman Sasan Sepehr Shahab Shahin Shahriar Siavash Soroush Taha " +
  "Yaser Yasin Younes Parsa Asghar Abolfazl Abdollah Rouhollah Nasrollah Fathollah Asadollah " +
  "Habibollah Hedayat Hamzeh Jalil Khalil Morad Rahman Sajjad Salman Samad Shapour Soheil " +
  "Soleiman Tohid Yaghoub Mahdi Hosein Saeid Massoud Esmail Mohamad Qasem Baqer Sadeq " +
  "Ruhollah Heydar Habib Hashem Alireza Mohammadreza Hamidreza Gholamreza Amirhossein"
).split(" ");
export const FA_GIVEN_FEMALE = (
  "Fatemeh Zahra Maryam Sara Narges Leila Shirin Parisa Mahnaz Azadeh Elham Somayeh Nasrin Roya " +
  "Samira Mina Neda Mahsa Negar Niloufar Shiva Farzaneh Fereshteh Tahereh Marzieh Zeinab Masoumeh " +
  "Mitra Shahla Golnaz Bahareh Setareh Atefeh Hoda Ladan Mahboubeh Soheila Parvaneh Homa Nazanin " +
  "Zohreh Akram Azam Afsaneh Arezoo Ava Azar Banafsheh Behnaz Delaram Donya Elnaz Farnaz Fariba " +
  "Farideh Firouzeh Forough Ghazal Golnar Haleh Hengameh Kimia Leyla Mahtab Mahin Mahshid Maral " +
  "Marjan Mehrnaz Minoo Mojgan Nahid Nasim Nastaran Parastoo Pari Parvin Pegah Raheleh Razieh " +
  "Roxana Sahar Samaneh Sepideh Shabnam Shadi Shahnaz Sima Simin Soudabeh Sousan Taraneh Yasaman " +
  "Yalda Zhila Hanieh Hedieh Helia Maedeh Fahimeh Khadijeh Robabeh Sakineh Mahdieh Mansoureh " +
  "Najmeh Nafiseh Nooshin Rezvan Sedigheh Tayebeh Fatemah Fatima Zahrah"
).split(" ");
/**
 * First words of compound given names, and the names they are joined to, as often as they are
 * (Reza, Hossein, Ali and Mehdi most of all; those are the ones also written joined: "Alireza").
 */
export const FA_COMPOUND_FIRST = "Mohammad Ali Hamid Amir Gholam Abdol Mohamad".split(" ");
export const FA_COMPOUND_SECOND = (
  "Reza Reza Reza Reza Reza Hossein Hossein Hossein Ali Ali Ali Mehdi Mehdi Hassan Javad Sadegh " +
  "Amin Bagher Taghi Karim Kazem Ebrahim Akbar Asghar Hadi Rahim Mahdi Esmaeil"
).split(" ");
export const FA_JOINED_SECOND = new Set(["Reza", "Hossein", "Ali", "Mehdi"]);
export const FA_SAYYID_MALE = ["Seyed", "Seyyed", "Sayed", "Sayyed", "Seyd", "Mir"];
export const FA_SAYYID_FEMALE = ["Seyedeh", "Seyyedeh", "Sayedeh"];
export const FA_SURNAMES = (
  "Hosseini Mousavi Ahmadi Rezaei Mohammadi Karimi Hashemi Jafari Rahimi Sadeghi Ghorbani Kazemi " +
  "Moradi Rostami Ebrahimi Najafi Salehi Akbari Alavi Bagheri Nazari Taheri Zare Heidari Abbasi " +
  "Asadi Ghasemi Soltani Amini Nouri Yazdani Farahani Mirzaei Azizi Rahmani Shahbazi Jalali Kamali " +
  "Motamedi Safavi Tabatabaei Ansari Sharifi Hejazi Mahdavi Zamani Fallahi Dehghani Saberi Hamidi " +
  "Emami Ranjbar Javadi Khosravi Parsa Shams Rouhani Behzadi Fazeli Ghaffari Keshavarz Sabouri " +
  "Vahidi Aghaei Yousefi Karami Fathi Mansouri Rashidi Kiani Hosseinzadeh Mohammadzadeh Alizadeh " +
  "Hassanzadeh Jafarzadeh Rezazadeh Asgari Ashrafi Bahrami Beheshti Borhani Daneshvar Darvishi " +
  "Eslami Esmaeili Faraji Farhadi Ghaderi Gholami Habibi Hassani Hakimi Heydari Jahani Kamrani " +
  "Karbasi Khalili Khademi Khajavi Kheirkhah Mahmoudi Majidi Malekzadeh Mehrabi Mirzadeh Mokhtari " +
  "Molaei Momeni Mostafavi Motlagh Nabavi Naderi Nasiri Nematollahi Nikkhah Nikzad Omidi Pakzad " +
  "Pourmohammadi Rahnama Rajabi Ramezani Rasouli Razavi Rezvani Sadri Safari Salimi Samadi " +
  "Sedaghat Shafiei Shahidi Shakeri Sharafi Sheikhi Shokri Sohrabi Tavakoli Valizadeh Vaziri " +
  "Yaghoubi Zamanian Zarei Zolfaghari Ahmadian Rezaian Karimian Mohammadian Hosseinian Azimi " +
  "Bakhtiari Bayat Davoudi Ebadi Fakhri Ghanbari Hajizadeh Izadi Jamshidi Kaviani Latifi " +
  "Mahmoudian Nikbakht Pahlavan Sadeghian Sepehri Shirvani Vakili Yazdanpanah Zandi Zanganeh " +
  "Mohammadpour Rezapour Ahmadinejad Karimpour Ahmadpour Hassanpour Ghorbanpour Asgharzadeh " +
  "Nikpour Jahanbakhsh Khodabakhsh Aghajani Rahimzadeh Abedi Afshar Amiri Arab Ardalan Asadzadeh " +
  "Babaei Bahmani Dadkhah Dashti Ebrahimzadeh Fatemi Firouzi Ghaemi Golshani Hamedani Hosseinpour " +
  "Jalilian Kazemian Khodadadi Mirza Moghadasi Mohebbi Nejati Niknam Rahmanian Rostamzadeh " +
  "Sabzevari Sadeghzadeh Shariati Soleimani Taghavi Talebi Vahdat Zargar Hosseinkhani Kermani"
).split(" ");
/** Words written after a surname, apart or hyphenated, as part of it. */
export const FA_SURNAME_TAILS = (
  "Nejad Nezhad Zadeh Pour Poor Far Fard Rad Moghaddam Moghadam Kia Asl Manesh Lou Vand Panah " +
  "Doust Bakhsh Nia Abadi"
).split(" ");
/** Place names that form a second surname (nisba). */
export const FA_PLACE_SURNAMES = (
  "Tabrizi Rafsanjani Kashani Qazvini Ghazvini Mashhadi Ardakani Yazdi Gilani Hamadani " +
  "Golpayegani Langroudi Zanjani Semnani Isfahani Esfahani Shirazi Tehrani Khorasani Mazandarani " +
  "Ardabili Borujerdi Neyshabouri Damghani Lahiji Rashti Kordestani Shahroudi Bojnourdi Dezfouli " +
  "Shoushtari Ahvazi Bushehri Sarvestani Firouzabadi Najafabadi Dolatabadi Naeini Ardestani " +
  "Natanzi Khansari Ashtiani Araki Mahallati Shahrestani Tafreshi Kazerouni Jahromi Lari Meybodi " +
  "Tousi Kermanshahi Sabzevari Khoei Maraghei Urmavi"
).split(" ");

/**
 * The surname written after its particle: "Ó" + a vowel takes h- (Ó hAodha); "Ní" lenites
 * (Ní Cheallaigh, Ní Shúilleabháin); "Nic" lenites too, but not c or g (Nic Dhomhnaill, Nic
 * Cárthaigh, Nic Giolla Phádraig); "Mac" leaves the stem as it is.
 */
export function irishSurname(particle: "Ó" | "Ní" | "Mac" | "Nic", stem: string): string {
  const first = stem[0].toLowerCase();
  const vowel = "aeiouáéíóú".includes(first);
  if (particle === "Ó") return vowel ? `h${stem}` : stem;
  if (particle === "Mac") return stem;
  if (vowel || stem[1] === "h" || /^s[cmpt]/i.test(stem)) return stem;
  if (particle === "Nic" && (first === "c" || first === "g")) return stem;
  return "bcdfgmpst".includes(first) ? `${stem[0]}h${stem.slice(1)}` : stem;
}

/**
 * Israeli given names and surnames in Latin letters, from general knowledge. faker writes Hebrew
 * names in Hebrew letters only, so "Noga", "Gal", "Asher" were known only where another origin
 * lists them, as a surname, and the network read "Noga Shamir" surname-first.
 */
export const HE_LATIN_GIVEN = (
  `Avi Avraham Yosef Moshe David Daniel Eitan Itai Yonatan Noam Omer Amit Ariel Uri Yair Yoav Nadav
  Tomer Guy Asaf Ran Roi Dor Shai Erez Gilad Ronen Yaniv Ofer Eyal Boaz Itamar Elad Lior Nir Tal
  Gal Ziv Oren Amir Doron Yuval Matan Ohad Alon Tzvi Menachem Shlomo Yehuda Yitzhak Yaakov Hillel
  Gideon Asher Noa Noga Tamar Yael Shira Michal Maya Hila Liat Keren Orly Adi Inbal Efrat Sigal Galit
  Dafna Ayelet Einav Meirav Osnat Rivka Sarit Tali Yifat Limor Hadas Merav Neta Shani Rotem Sivan
  Orit Ronit Anat Hagit Avital Tova Chana Leah Rachel Miriam Batya Dvora Naama`
).split(/\s+/);
export const HE_LATIN_SURNAMES = (
  `Cohen Levi Levy Mizrahi Peretz Biton Dahan Friedman Avraham Katz Azoulay Malka Ohana Shapiro
  Goldberg Ben-David Amar Gabay Hadad Vaknin Elbaz Ashkenazi Segal Rosenberg Klein Kaplan Levin Navon
  Golan Alon Carmi Shalev Ben-Shimon Yosef Oz Erez Ronen Sasson Mor Gefen Eliyahu Hazan Shitrit
  Edri Moyal Ben-Moshe Avraham Tal Ofer Ben-Yosef Nachmani Rubin Weissman Feldman Schwartz Agmon`
).split(/\s+/);
/**
 * German given names of the generations born 1930–1980, which faker's German list (recent baby
 * names) mostly lacks; "Volker", "Günther" were known only as surnames.
 */
export const DE_GIVEN_EXTRA = (
  `Volker Jürgen Dieter Horst Rainer Uwe Jens Lutz Hartmut Wolfram Ulrich Bernd Heiko Sönke Malte
  Günther Günter Manfred Gerd Detlef Klaus Reinhard Siegfried Dietmar Helmut Wilfried Norbert
  Eckhard Joachim Gottfried Gudrun Heidrun Sieglinde Roswitha Hannelore Rosemarie Gisela Ilse Karin
  Renate Ute Jutta Dagmar Heike Anke Silke Elke Birgit Meike Kerstin`
).split(/\s+/);
