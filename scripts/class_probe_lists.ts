/**
 * Name lists for the class probes (`scripts/make_class_probes.ts`), from general knowledge: common
 * given names and surnames of each origin, office titles and occupations. None is a dev row. The
 * Cyrillic lists here hold names that the training lists (`model/train/cyrillic_western.ts`) lack,
 * so the probe measures names the network never saw as well as names it did.
 */
export const CYRILLIC_GIVEN_OUTSIDE = `Уэйн Дерек Клинт Марвин Гленн Трэвис Рассел Ллойд Нил Эдгар
  Лоренс Вернон Морис Рене Гастон Марсель Эрве Рудольф Отто Эрих Вилли Лотар Дженни Бонни Абигейл
  Мэдисон Хлоя Одри Мюриэль Брижит Аннелизе Гертруда Кортни Бриттани`;
export const CYRILLIC_SURNAMES_OUTSIDE = `Уитмор Хэтэуэй Бакстер Кингсли Фэрбенкс Уинтерс Брэдли
  Уэлч Харпер Монро Пирсон Мэйсон Хадсон Шеридан Гудман Китон Лафонтен Бопре Дюшан Гренье Моруа
  Ренуар Беранже Вайсман Лихтенберг Брандт Фогель Штраус Кранц Хубер Эккерт Хаузер Ротман Холбрук
  Эшфорд Уэстбрук`;

/**
 * Given names that are also surnames somewhere (an English, German, Hungarian or Japanese surname
 * list holds them); the script keeps those the shipped lexicon knows as a surname.
 */
export const GIVEN_ALSO_SURNAME = `Noga Ido Volker Thomas James Henry Morgan Wallace Grant Douglas
  Russell Craig Dean Warren Gordon Howard Bernard Vincent Martin Arnold Albert Walter Frank Paul
  Gilbert Lambert Leonard Herbert Roland Norman Stanley Lewis Joseph Francis George Oliver Elliott
  Spencer Austin Tyler Mason Carter Jordan Taylor Kelly Florian Konrad Werner Günther Lothar
  Kurt Horst Otto Ernst Bruno Gerhard Arno Till Veit Ulrich Jens Marius Fabian Simon Adrian Julian
  Tobias Elias Benedikt Laurent Vincent Mathis Bastien Hugo Lucas Raphael Jules Gaspard Dominique
  Amos Gideon Ezra Ira Asher Eli Ari Omer Noam Tal Oren Gal Ziv Lior Nadav Eitan Amit Ronen Yaron
  Tamar Yael Dana Maya Shira Michal Hila Liat Keren Orly Stella Ruth Esther Hannah Miriam Judith
  Sara Vera Greta Frieda Heide Grace Faith Hope Joy Rose Pearl June Summer April Ivy`;
/** Surnames the shipped lexicon lacks (the script drops any it knows), by origin. */
export const UNKNOWN_SURNAMES = `Strüwing Brockhagen Ellerbrock Hackstein Tönnies Wiesnewski
  Kohlhaase Rautenberg Düsterhöft Ahlgrimm Bredemeier Vosskuhle Hinrichsen Spiekermann Niehoff
  Grotefend Lüdecke Wöhrmann Quandtmeyer Schlüter-Hahn Pfannkuch Ostermeier Rübsamen Kleinschmager
  Shamir Ben-Ami Ben-Dor Harel Ofek Regev Peled Almog Yaron Ben-Haim Zohar Tzur Avrahami Shoham
  Dagan Barak Ben-Shahar Nahmias Sela Ben-Zvi Lavie Amitai Ashkenazi-Levi Sharabi Margalit
  Brévannes Duplessier Montbrial Vaudrecourt Lacombelle Sauvignet Dufrénoy Castagnède Rochebrune
  Hautecœur Malherbet Lesparre Pradelle Crouzillac Mazerolles Tourneville Bellegarde Fauconnet
  Whitcombe Ashbury Pendlebury Thistlewood Hollingworth Ravenscroft Blakemore Fairweather
  Cuthbertson Winterbottom Ollerenshaw Heathcote Tattersall Brocklehurst Gathercole Mottershead
  Ainscough Sowerbutts Ramsbottom Pilkington Wolstenholme Greenhalgh Butterworth Haworth Openshaw`;

/** Common given names of each origin, for the ALL-CAPS probe (the lexicon knows them). */
export const CAPS_GIVEN = `Mathieu Julien Nicolas Sébastien Guillaume Antoine Céline Aurélie
  Émilie Camille Stéphane Thierry Laurent Sophie Isabelle Juliette Benoît Cédric Fabrice Hélène
  Stefan Matthias Jürgen Katrin Sabine Andreas Tobias Uwe Sven Birgit Michael Jennifer Robert
  Susan Daniel Karen Patrick Linda Steven Nancy Marco Giulia Francesca Luca Alessandro Chiara
  Javier Lucía Alejandro Carmen Pablo Marta Joost Pieter Annelies Lars Ingrid Magnus Kerstin`;

/** Rarer given names (French, German, Dutch, Nordic) the script keeps only if the lexicon lacks them. */
export const CAPS_RARE_GIVEN = `Anselme Gonzague Aymeric Enguerrand Thibaud Amaury Clotilde
  Apolline Bertille Ghislain Wendelin Hartwig Gottlob Irmtraud Waltraud Rembert Wiebke Hiltrud
  Ortwin Sigismund Wouter Gerrit Joukje Sjoerd Berend Aagje Torbjørn Eskil Solveig Ragnhild`;

/**
 * Offices written before a name: a closed, listable vocabulary (with their usual qualifiers), as
 * press releases, minutes and signatures write them.
 */
export const OFFICES_BEFORE = [
  "Senior Vice President",
  "Vice President",
  "Executive Vice President",
  "President",
  "Ward Councillor",
  "City Councillor",
  "Councillor",
  "Councilmember",
  "County Commissioner",
  "Police Commissioner",
  "Commissioner",
  "State Senator",
  "Senator",
  "Attorney General",
  "Assistant Attorney General",
  "District Attorney",
  "Secretary of State",
  "Secretary",
  "Treasurer",
  "Director",
  "Executive Director",
  "Managing Director",
  "Deputy Director",
  "Governor",
  "Lieutenant Governor",
  "Deputy Mayor",
  "Mayor",
  "Minister",
  "Prime Minister",
  "Chief Executive Officer",
  "Chief Financial Officer",
  "Superintendent",
  "Sheriff",
  "County Sheriff",
  "Chairman",
  "Chairwoman",
  "Board Chair",
  "Assemblymember",
  "Assemblywoman",
  "Assemblyman",
  "State Representative",
  "Congresswoman",
  "Alderman",
  "Comptroller",
  "County Clerk",
  "Auditor General",
  "Provost",
  "Associate Dean",
  "Chancellor",
  "Principal",
];
/** Occupations written after a name, the way a credential is. */
export const OCCUPATIONS_AFTER = `Pharmacist Architect Engineer Accountant Physician Dentist
  Attorney Consultant Photographer Designer Surveyor Veterinarian Optometrist Chiropractor
  Therapist Psychologist Notary Paralegal Auctioneer Appraiser Electrician Economist Journalist
  Scientist Researcher Analyst Programmer Editor Translator Interpreter Librarian Nurse
  Physiotherapist Radiologist Surgeon Pediatrician Dietitian Hygienist Counselor Mediator
  Lawyer Solicitor Barrister Agent Realtor Broker`;

/** Hyphenated given names and surnames, for the hyphen and bracket probe. */
export const HYPHEN_GIVEN = `Jean-Pierre Jean-Luc Marie-Claire Anne-Sophie Hans-Peter Karl-Heinz
  Anna-Lena Eva-Maria Mary-Jane Mary-Kate Jean-Baptiste Pierre-Yves Marie-Hélène Klaus-Dieter
  Hans-Jürgen Ann-Marie Lise-Lotte Jean-Marc Paul-Henri Sarah-Jane`;
export const HYPHEN_SURNAMES = `Smith-Jones Lloyd-Webber Müller-Lüdenscheidt Bonham-Carter
  Parker-Bowles Jones-Davies Martin-Garcia Schmidt-Hansen Fischer-Dieskau Lévy-Strauss
  Taylor-Johnson Hughes-Hallett Berners-Lee Day-Lewis Ross-Williams Zeta-Jones Wright-Phillips
  Garcia-Lopez Rees-Mogg Baden-Powell`;
export const NICKNAMES: [string, string][] = [
  ["William", "Bill"],
  ["Robert", "Bob"],
  ["Elizabeth", "Liz"],
  ["Katherine", "Kate"],
  ["Margaret", "Peggy"],
  ["Richard", "Dick"],
  ["James", "Jim"],
  ["Jennifer", "Jen"],
  ["Anthony", "Tony"],
  ["Christopher", "Chris"],
  ["Alexander", "Sasha"],
  ["Theodore", "Ted"],
  ["Patricia", "Trish"],
  ["Edward", "Ted"],
  ["Susan", "Sue"],
];
export const PLAIN_SURNAMES = `Marsh Byrne Weiss Hendricks Carter Lindqvist Okafor Brennan
  Kowalski Novak Fischer Moreau Rossi Svensson Jensen Walsh Duarte Keller Horvath Larsen`;
export const PLAIN_GIVEN = `Linda Tom Anna Paul Sarah Michael Laura David Emma Peter Julia Mark
  Helen Robert Claire Simon Maria Daniel Karen Andrew`;

export { words } from "../model/train/cyrillic_western.ts";
