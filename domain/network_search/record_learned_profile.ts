/**
 * Writes a profile learned from the web into the directory (keyed by its URL, through the same
 * upsert `admin import` uses), so the next search or find answers from our own records. A
 * failure to write only costs that; the answer stands. A profile of a person on the service-wide
 * suppression list is never written (counted in the log as a skipped write-back).
 */
import type { DomainContext } from "../context.ts";
import { importPeople, parseImportRecord } from "../directory/import_people.ts";
import { readPersonName } from "../find/read_person_name.ts";
import type { ProfileMatch } from "./profile_match.ts";
import { isSuppressed } from "../privacy/is_suppressed.ts";

export async function recordLearnedProfile(
  ctx: DomainContext,
  profile: ProfileMatch,
): Promise<void> {
  if (await isSuppressed(ctx, { profileUrls: [profile.networkUrl] })) {
    ctx.logger.info("write-back skipped: the person is suppressed", { operation: "network" });
    ctx.telemetry.count({ kind: "suppressed_write_back", operation: "network" });
    return;
  }
  const reading = await readPersonName(ctx, profile.name);
  const parsed = parseImportRecord({
    name: profile.name,
    ...(reading ? { given: reading.given, surname: reading.surname } : {}),
    title: profile.title,
    companyName: profile.companyName,
    location: profile.location,
    headline: profile.headline,
    networkUrl: profile.networkUrl,
  }, ctx.settings.network);
  if (!parsed.ok) return;
  await importPeople(ctx, [parsed.record], { source: "web-search" })
    .catch(() => ctx.logger.warn("a learned profile could not be written to the directory"));
}
