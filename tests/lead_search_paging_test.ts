/**
 * The runner's paged directory search against the plain answer: walked page by page, it returns
 * exactly every matching person once, in id order, whether a page came from the window after the
 * cursor, from the filters' indexes, or from the matches a selective search kept for the next
 * pages (small window and prefetch sizes, so a small directory takes every path).
 */
import assert from "node:assert/strict";
import { importDemoPeople } from "../domain/directory/import_demo_people.ts";
import {
  createPagedDirectorySearch,
  type DirectoryLead,
  searchDirectoryPage,
} from "../domain/lead_search/search_directory_page.ts";
import type { LeadFilters } from "../domain/lead_search/lead_search_run.ts";
import { migrate } from "../domain/stores/migrate.ts";
import { DB_TEST, openTestDatabase } from "./harness.ts";

Deno.test("lead search paging: every match once, in id order, on every path", DB_TEST, async () => {
  const db = await openTestDatabase();
  try {
    await migrate(db.sql);
    await importDemoPeople({ db }, { people: 400, now: Date.now() });
    const cases: LeadFilters[] = [{ seniority: ["senior"] }, { jobTitle: ["engineer"] }, {}];
    for (const filters of cases) {
      const expected = await allMatches({ db }, filters);
      assert.ok(expected.length > 5, `enough matches for ${JSON.stringify(filters)}`);
      for (
        const [label, search] of [
          [
            "paged, small window and prefetch",
            createPagedDirectorySearch({ window: 7, prefetch: 40 }),
          ],
          [
            "paged, prefetch smaller than a page",
            createPagedDirectorySearch({ window: 3, prefetch: 10 }),
          ],
          ["stateless", searchDirectoryPage],
        ] as const
      ) {
        const chainId = `run_paging_${crypto.randomUUID().slice(0, 8)}`;
        const walked: string[] = [];
        let after: string | null = null;
        for (let page = 0; page < 100; page++) {
          const leads: DirectoryLead[] = await search({ db }, {
            filters,
            chainId,
            after,
            limit: 25,
          });
          if (leads.length === 0) break;
          walked.push(...leads.map((lead) => lead.personId));
          after = leads[leads.length - 1].personId;
        }
        assert.deepEqual(walked, expected, `${label}: ${JSON.stringify(filters)}`);
      }
    }
  } finally {
    await db.drop();
  }
});

/** The plain answer: every person matching the filters, in id order. */
async function allMatches(ctx: Parameters<typeof searchDirectoryPage>[0], filters: LeadFilters) {
  const all = await searchDirectoryPage(ctx, {
    filters,
    chainId: "run_none",
    after: null,
    limit: 100_000,
  });
  return all.map((lead) => lead.personId);
}
