/**
 * Results as the real network's profile pages come back from web search, read with the default
 * network (`linkedin.com`, `/in/`, "LinkedIn"): the title shapes engines show, cut titles, localized
 * titles and snippets, every way a profile URL is linked, and the pages that are no profile.
 */
import assert from "node:assert/strict";
import { normalizeNetworkUrl } from "../directory/normalize.ts";
import { DEFAULT_PROFILE_NETWORK } from "../shared/profile_network.ts";
import { profileSearchQuery, profileUrlQuery } from "./network.ts";
import { readProfileResult } from "./read_profile_result.ts";

const URL = "https://www.linkedin.com/in/ingrid-solberg-haugen-4b1a27";
const CANONICAL = "https://linkedin.com/in/ingrid-solberg-haugen-4b1a27";

function read(title: string, snippet = "", url = URL) {
  return readProfileResult({ title, url, snippet }, DEFAULT_PROFILE_NETWORK);
}

Deno.test("real shapes: Name - Title - Company | LinkedIn", () => {
  assert.deepEqual(
    read(
      "Ingrid Solberg-Haugen - Head of Data Platform - Nordlys Energi | LinkedIn",
      "Head of Data Platform at Nordlys Energi · Experience: Nordlys Energi · Education: NTNU · " +
        "Location: Oslo, Norway · 500+ connections on LinkedIn. View Ingrid Solberg-Haugen's " +
        "profile on LinkedIn, a professional community of 1 billion members.",
    ),
    {
      name: "Ingrid Solberg-Haugen",
      headline: "Head of Data Platform - Nordlys Energi",
      title: "Head of Data Platform",
      companyName: "Nordlys Energi",
      location: "Oslo, Norway",
      networkUrl: CANONICAL,
    },
  );
});

Deno.test("real shapes: Name – Company | LinkedIn, and Title at Company", () => {
  const company = read("Ingrid Solberg-Haugen – Nordlys Energi | LinkedIn");
  assert.equal(company?.companyName, "Nordlys Energi");
  assert.equal(company?.title, null);
  const at = read("Ingrid Solberg-Haugen - Data Engineer at Nordlys Energi | LinkedIn");
  assert.equal(at?.title, "Data Engineer");
  assert.equal(at?.companyName, "Nordlys Energi");
  assert.equal(at?.headline, "Data Engineer at Nordlys Energi");
  // "Title at Company" in the snippet alone fills a name-only title.
  const snippet = read("Ingrid Solberg-Haugen | LinkedIn", "Data Engineer at Nordlys Energi");
  assert.equal(snippet?.title, "Data Engineer");
  assert.equal(snippet?.companyName, "Nordlys Energi");
});

Deno.test("real shapes: Name - Location | LinkedIn, also with 'Professional Profile'", () => {
  for (
    const title of [
      "Ingrid Solberg-Haugen - Oslo, Norway | LinkedIn",
      "Ingrid Solberg-Haugen - Oslo, Norway | Professional Profile | LinkedIn",
    ]
  ) {
    const result = read(title);
    assert.equal(result?.location, "Oslo, Norway", title);
    assert.equal(result?.companyName, null, title);
    assert.equal(result?.title, null, title);
  }
});

Deno.test("real shapes: a title cut with … never yields a cut company", () => {
  const cut = read("Ingrid Solberg-Haugen - Head of Data Platform - Nordlys Ene…");
  assert.equal(cut?.name, "Ingrid Solberg-Haugen");
  assert.equal(cut?.title, "Head of Data Platform");
  assert.equal(cut?.companyName, null);
  // Cut inside the suffix: the parts before it are whole.
  const inSuffix = read("Ingrid Solberg-Haugen - Head of Data - Nordlys Energi | Linked...");
  assert.equal(inSuffix?.companyName, "Nordlys Energi");
  // Cut inside the network's name after a dash.
  const dashCut = read("Ingrid Solberg-Haugen - Nordlys Energi - Linke…");
  assert.equal(dashCut?.companyName, null, "a single part without evidence is not guessed");
  assert.equal(dashCut?.name, "Ingrid Solberg-Haugen");
});

Deno.test("real shapes: localized titles and snippets", () => {
  const german = read(
    "Jörg Brandstätter – Softwareentwickler – Muster Logistik GmbH | LinkedIn",
    "Berufserfahrung: Muster Logistik GmbH · Ausbildung: TU München · Ort: München · " +
      "Mehr als 500 Kontakte auf LinkedIn. Sehen Sie sich das Profil von Jörg Brandstätter auf " +
      "LinkedIn an, einer professionellen Community mit mehr als 1 Milliarde Mitgliedern.",
    "https://de.linkedin.com/in/joerg-brandstaetter",
  );
  assert.equal(german?.name, "Jörg Brandstätter");
  assert.equal(german?.title, "Softwareentwickler");
  assert.equal(german?.companyName, "Muster Logistik GmbH");
  assert.equal(german?.location, "München");
  assert.equal(german?.networkUrl, "https://linkedin.com/in/joerg-brandstaetter");

  const french = read(
    "Amélie Fournier - Régie Lumière | LinkedIn",
    "Expérience : Régie Lumière · Formation : HEC Paris · Lieu : Lyon · plus de 500 relations " +
      "sur LinkedIn. Consultez le profil de Amélie Fournier sur LinkedIn.",
    "https://fr.linkedin.com/in/amelie-fournier",
  );
  assert.equal(french?.companyName, "Régie Lumière");
  assert.equal(french?.location, "Lyon");
  assert.equal(french?.headline, null, "no prose or connection count is a headline");

  // A localized network name after a dash is the suffix, not the company.
  const suffix = read("Jörg Brandstätter - Muster Logistik - LinkedIn Deutschland");
  assert.equal(suffix?.companyName, null);
  const spanish = read("Lucía Núñez - Analista de datos - Grupo Faro - LinkedIn España");
  assert.equal(spanish?.companyName, "Grupo Faro");
  assert.equal(spanish?.title, "Analista de datos");
  // An employer whose name starts with the network's stays the employer.
  const learning = read("Ingrid Solberg-Haugen - Instructor - LinkedIn Learning | LinkedIn");
  assert.equal(learning?.companyName, "LinkedIn Learning");
});

Deno.test("real shapes: every way a profile is linked reaches one key", () => {
  for (
    const url of [
      URL,
      "http://www.linkedin.com/in/ingrid-solberg-haugen-4b1a27/",
      "https://no.linkedin.com/in/ingrid-solberg-haugen-4b1a27?originalSubdomain=no",
      "https://uk.linkedin.com/in/Ingrid-Solberg-Haugen-4B1A27/en",
      "https://www.linkedin.com/in/ingrid-solberg-haugen-4b1a27/de-de#experience",
      "https://linkedin.com/in/ingrid-solberg-haugen-4b1a27",
    ]
  ) {
    assert.equal(read("Ingrid Solberg-Haugen | LinkedIn", "", url)?.networkUrl, CANONICAL, url);
    assert.equal(normalizeNetworkUrl(url, DEFAULT_PROFILE_NETWORK), CANONICAL, url);
  }
  // Another site keeps the general normal form (no subdomain or path part is dropped).
  assert.equal(
    normalizeNetworkUrl("https://uk.example.org/in/x/en", DEFAULT_PROFILE_NETWORK),
    "https://uk.example.org/in/x/en",
  );
});

Deno.test("real shapes: pages that are no profile", () => {
  for (
    const url of [
      "https://www.linkedin.com/company/nordlys-energi",
      "https://www.linkedin.com/posts/ingrid-solberg-haugen_data-activity-7150",
      "https://www.linkedin.com/pulse/why-data-platforms-ingrid-solberg-haugen",
      "https://www.linkedin.com/jobs/view/3791",
      "https://www.linkedin.com/pub/dir/Ingrid/Solberg-Haugen",
      "https://www.linkedin.com/in/ingrid-solberg-haugen-4b1a27/details/experience",
      "https://linkedin.com.evil.test/in/ingrid",
      "https://notlinkedin.com/in/ingrid",
    ]
  ) assert.equal(read("Ingrid Solberg-Haugen | LinkedIn", "", url), null, url);
});

Deno.test("real shapes: the site: queries on the default network", () => {
  assert.equal(
    profileSearchQuery(
      { firstName: "Ingrid", lastName: "Solberg-Haugen", company: "Nordlys" },
      DEFAULT_PROFILE_NETWORK,
    ),
    'site:linkedin.com/in "Ingrid Solberg-Haugen" "Nordlys"',
  );
  assert.equal(
    profileUrlQuery(CANONICAL, DEFAULT_PROFILE_NETWORK),
    "site:linkedin.com/in/ingrid-solberg-haugen-4b1a27",
  );
});
