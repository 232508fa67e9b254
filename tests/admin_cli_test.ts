import assert from "node:assert/strict";
import { runAdmin } from "../admin.ts";
import { silentLogger } from "../domain/shared/logger.ts";
import { DB_TEST, startTestService, withoutRequestId } from "./harness.ts";

Deno.test(
  "admin CLI beside a running server on the same DATA_DIR / DATABASE_URL",
  DB_TEST,
  async (t) => {
    const running = await startTestService(silentLogger);
    const { env, base } = running;
    const admin = async (...args: string[]) => {
      const result = await runAdmin(args, env);
      if (!result.ok) {
        return {
          exitCode: result.exitCode,
          message: result.message,
          output: null as never,
        };
      }
      return { exitCode: 0, message: "", output: result.output as Record<string, never> };
    };
    try {
      let workspaceId = "";
      let apiKey = "";
      await t.step(
        "workspace create → the key reads /api/v1/points on the live server",
        async () => {
          const created = await admin("workspace", "create", "--name", "acme", "--points", "250");
          assert.equal(created.exitCode, 0);
          ({ workspaceId, apiKey } = created.output);
          assert.match(apiKey, /^svc_sk_[0-9a-f]{48}$/);
          assert.deepEqual(Object.keys(created.output).sort(), ["apiKey", "workspaceId"]);
          const res = await fetch(`${base}/api/v1/points`, {
            headers: { Authorization: `Bearer ${apiKey}` },
          });
          assert.equal(res.status, 200);
          assert.equal((await res.json()).data.available, 250);
          const wrong = await fetch(`${base}/api/v1/points`, {
            headers: {
              Authorization: `Bearer ${apiKey.slice(0, -1)}${apiKey.endsWith("0") ? "1" : "0"}`,
            },
          });
          assert.deepEqual(withoutRequestId(await wrong.json()), {
            error: { code: "unauthenticated", message: "Invalid API key" },
          });
        },
      );
      await t.step("key create / revoke", async () => {
        const key = await admin(
          "key",
          "create",
          "--workspace",
          workspaceId,
          "--expires-in",
          "3600",
          "--name",
          "CRM sync",
        );
        assert.equal(key.exitCode, 0);
        assert.equal(key.output.name, "CRM sync", "the name the app lists it by");
        assert.match(key.output.apiKey, /^svc_sk_/);
        assert.match(key.output.keyId, /^key_/);
        const headers = { Authorization: `Bearer ${key.output.apiKey}` };
        assert.equal(
          (await (await fetch(`${base}/api/v1/points`, { headers })).json()).data.available,
          250,
        );
        const revoked = await admin("key", "revoke", "--key-id", key.output.keyId);
        assert.equal(revoked.exitCode, 0);
        await new Promise((r) => setTimeout(r, 5100)); // the server caches a verified key for 5 s
        const res = await fetch(`${base}/api/v1/points`, { headers });
        assert.equal(res.status, 401);
        await res.body?.cancel();
      });
      await t.step("points grant and balance", async () => {
        const granted = await admin(
          "points",
          "grant",
          "--workspace",
          workspaceId,
          "--points",
          "50",
        );
        assert.deepEqual(granted.output.balance, { available: 300, reserved: 0, granted: 300 });
        const balance = await admin("balance", "--workspace", workspaceId);
        assert.deepEqual(balance.output.balance, { available: 300, reserved: 0, granted: 300 });
        assert.deepEqual((balance.output.entries as { kind: string }[]).map((e) => e.kind), [
          "grant",
          "grant",
        ]);
      });
      await t.step("bad arguments: exit code 2 and a clear message", async () => {
        for (
          const [args, message] of [
            [[], /no command/],
            [["frobnicate"], /unknown command/],
            [["workspace", "create"], /--name is required/],
            [
              ["points", "grant", "--workspace", workspaceId, "--points", "-5"],
              /^--points must be a positive integer/,
            ],
            [
              ["points", "grant", "--workspace", workspaceId, "--points", "0"],
              /^--points must be a positive integer/,
            ],
            [
              ["key", "create", "--workspace", workspaceId, "--expires-in", "99999999999999"],
              /^--expires-in must be at most 3153600000 seconds/,
            ],
            [
              ["key", "create", "--workspace", workspaceId, "--expires-in", "-60"],
              /^--expires-in must be a positive integer/,
            ],
            [
              ["key", "create", "--workspace", workspaceId, "--name", "CRM\u001bsync"],
              /^name must not contain control characters/,
            ],
            [
              ["key", "create", "--workspace", workspaceId, "--name", "k".repeat(5000)],
              /^name must be at most 100 characters/,
            ],
            [["workspace", "create", "--name", "acme\u0007"], /^name must not contain control/],
            [["workspace", "create", "--name", "w".repeat(5000)], /^name must be 1 to 200/],
            [
              ["key", "create", "--workspace", workspaceId, "--expires-in", "soon"],
              /--expires-in must be a positive integer/,
            ],
            [["balance", "--workspace", workspaceId, "--verbose"], /Unknown option|verbose/],
          ] as [string[], RegExp][]
        ) {
          const result = await admin(...args);
          assert.equal(result.exitCode, 2, args.join(" "));
          assert.match(result.message, message);
        }
        const missing = await admin("balance", "--workspace", "ws_nope");
        assert.equal(missing.exitCode, 1);
        assert.match(missing.message, /No workspace with id ws_nope/);
      });
      await t.step("points grant never takes a balance past 2^53 - 1: exit 2", async () => {
        const big = await admin("workspace", "create", "--name", "big", "--points", "1000");
        assert.equal(big.exitCode, 0);
        const id = big.output.workspaceId;
        const toTheTop = String(Number.MAX_SAFE_INTEGER - 1000);
        const top = await admin("points", "grant", "--workspace", id, "--points", toTheTop);
        assert.equal(top.exitCode, 0);
        const max = Number.MAX_SAFE_INTEGER;
        assert.deepEqual(top.output.balance, { available: max, reserved: 0, granted: max });
        const over = await admin("points", "grant", "--workspace", id, "--points", "1");
        assert.equal(over.exitCode, 2);
        assert.match(over.message, /above 9007199254740991.*at most 0 more can be granted/);
        const balance = await admin("balance", "--workspace", id);
        assert.deepEqual(balance.output.balance, top.output.balance, "nothing was granted");
        assert.equal((balance.output.entries as unknown[]).length, 2);
        // A missing workspace is still exit 1, whatever the points.
        const missing = await admin("points", "grant", "--workspace", "ws_nope", "--points", "1");
        assert.equal(missing.exitCode, 1);
      });
    } finally {
      await running.stop();
      await running.cleanup();
    }
  },
);

Deno.test(
  "admin CLI: import a JSON-lines file and fill the demo directory beside a running server",
  DB_TEST,
  async (t) => {
    const { openDatabase } = await import("../domain/stores/database.ts");
    const { findPersonByNetworkUrl } = await import(
      "../domain/directory/find_person_by_network_url.ts"
    );
    const { findPersonAtDomain } = await import("../domain/directory/find_person_at_domain.ts");
    const running = await startTestService(silentLogger);
    const { env, dataDir } = running;
    const progress: string[] = [];
    const admin = async (...args: string[]) => {
      const result = await runAdmin(args, env, { progress: (line) => progress.push(line) });
      return result.ok
        ? { exitCode: result.exitCode, message: "", output: result.output as Record<string, never> }
        : { exitCode: result.exitCode, message: result.message, output: null as never };
    };
    // The directory as the server sees it (its database, through its socket or DATABASE_URL).
    const db = await openDatabase({
      url: env.DATABASE_URL ?? null,
      pgliteDir: `${dataDir}/pglite`,
    });
    try {
      const file = `${dataDir}/people.jsonl`;
      await Deno.writeTextFile(
        file,
        [
          JSON.stringify({
            name: "Ada Lovelace",
            companyName: "Analytical Engines Ltd",
            companyDomain: "engines.example",
            networkUrl: "https://network.example/in/ada-cli",
            emails: [{ address: "ada@engines.example", status: "valid" }],
          }),
          "{not json",
          "",
          JSON.stringify({ name: "Charles Babbage", companyDomain: "engines.example" }),
          JSON.stringify({ title: "no name" }),
          JSON.stringify({ name: "Grace Hopper", emails: [{ address: "grace" }] }),
          JSON.stringify({
            name: "Alan Turing",
            networkUrl: "https://network.example/in/alan-cli",
          }),
        ].join("\r\n") + "\n",
      );

      await t.step("import: bad lines listed by number, the rest loaded, exit 1", async () => {
        const result = await admin("import", file);
        assert.equal(result.exitCode, 1);
        const { errors, ...summary } = result.output as unknown as {
          errors: { line: number; message: string }[];
        } & Record<string, unknown>;
        assert.deepEqual(
          { ...summary, seconds: 0 },
          {
            lines: 7,
            imported: 3,
            created: 3,
            updated: 0,
            unchanged: 0,
            companies: { created: 1, updated: 0 },
            rejected: 3,
            suppressed: 0,
            seconds: 0,
          },
        );
        assert.deepEqual(errors.map((e) => e.line), [2, 5, 6]);
        assert.match(errors[0].message, /invalid JSON/);
        assert.match(errors[1].message, /^name: /);
        assert.match(errors[2].message, /emails\.0\.address/);
        assert.match(progress.at(-1)!, /7 lines, 3 imported, 3 rejected/);

        // On the server's database, with given name and surname from the name model.
        const ada = await findPersonByNetworkUrl({ db }, "https://network.example/in/ada-cli");
        assert.deepEqual([ada?.given, ada?.surname], ["Ada", "Lovelace"]);
        assert.equal(ada?.emails[0].address, "ada@engines.example");
        const charles = await findPersonAtDomain({ db }, {
          fullName: "Charles Babbage",
          domain: "engines.example",
        });
        assert.deepEqual([charles?.given, charles?.surname], ["Charles", "Babbage"]);

        const again = await admin("import", file);
        assert.equal(again.exitCode, 1);
        assert.deepEqual(
          [again.output.created, again.output.updated, again.output.unchanged],
          [0, 0, 3],
        );
      });

      await t.step("import: a clean file exits 0; usage and missing files", async () => {
        const clean = `${dataDir}/clean.jsonl`;
        await Deno.writeTextFile(clean, JSON.stringify({ name: "Hedy Lamarr" }));
        const ok = await admin("import", clean);
        assert.equal(ok.exitCode, 0);
        assert.deepEqual([ok.output.lines, ok.output.imported, ok.output.rejected], [1, 1, 0]);

        const missingArg = await admin("import");
        assert.equal(missingArg.exitCode, 2);
        assert.match(missingArg.message, /FILE\.jsonl is required/);
        const twoFiles = await admin("import", clean, clean);
        assert.equal(twoFiles.exitCode, 2);
        const missingFile = await admin("import", `${dataDir}/nope.jsonl`);
        assert.equal(missingFile.exitCode, 1);
        assert.match(missingFile.message, /cannot read .*nope\.jsonl/);
      });

      await t.step("demo: fills the directory and names lookups that answer", async () => {
        const demo = await admin("demo", "--people", "60");
        assert.equal(demo.exitCode, 0);
        assert.equal(demo.output.people, 60);
        assert.ok((demo.output.created as number) >= 55);
        const tries = demo.output.tryThese as {
          what: string;
          body: Record<string, string>;
          expect?: string;
        }[];
        const byName = tries.find((x) => x.body.mode === "email")!;
        const found = await findPersonAtDomain({ db }, {
          fullName: byName.body.name,
          domain: byName.body.company,
        });
        assert.equal(found?.emails[0].address, byName.expect);
        assert.equal(found?.emails[0].status, "valid");
        const byUrl = tries.find((x) => x.body.mode === "network")!;
        assert.ok(await findPersonByNetworkUrl({ db }, byUrl.body.networkUrl));
        assert.ok(tries.some((x) => x.body.mode === "company"));

        const again = await admin("demo", "--people", "60");
        assert.deepEqual([again.exitCode, again.output.created], [0, 0]);
        for (const args of [["demo", "--people", "0"], ["demo", "--people", "many"]]) {
          assert.equal((await admin(...args)).exitCode, 2, args.join(" "));
        }
      });
    } finally {
      await db.close();
      await running.stop();
      await running.cleanup();
    }
  },
);

Deno.test(
  "admin CLI: dnc add / remove / list beside a running server, with usage errors",
  DB_TEST,
  async () => {
    const { openDatabase } = await import("../domain/stores/database.ts");
    const { isDoNotContact } = await import("../domain/do_not_contact/is_do_not_contact.ts");
    const running = await startTestService(silentLogger);
    const { env, dataDir } = running;
    const admin = async (...args: string[]) => {
      const result = await runAdmin(args, env);
      return result.ok
        ? { exitCode: result.exitCode, message: "", output: result.output as Record<string, never> }
        : { exitCode: result.exitCode, message: result.message, output: null as never };
    };
    // The list as the server sees it (its database, through its socket or DATABASE_URL).
    const db = await openDatabase({
      url: env.DATABASE_URL ?? null,
      pgliteDir: `${dataDir}/pglite`,
    });
    try {
      const created = await admin("workspace", "create", "--name", "dnc-cli");
      const workspaceId: string = created.output.workspaceId;
      const ws = ["--workspace", workspaceId];

      const added = await admin("dnc", "add", ...ws, "--domain", "ACME.com.");
      assert.equal(added.exitCode, 0);
      assert.deepEqual(added.output, {
        workspaceId,
        kind: "domain",
        value: "acme.com",
        created: true,
      });
      const again = await admin("dnc", "add", ...ws, "--domain", "acme.com");
      assert.deepEqual([again.exitCode, again.output.created], [0, false]);
      const email = await admin("dnc", "add", ...ws, "--email", "Ada@Engines.Example");
      assert.deepEqual(
        [email.exitCode, email.output.kind, email.output.value, email.output.created],
        [0, "email", "ada@engines.example", true],
      );
      assert.equal(await isDoNotContact({ db }, { workspaceId, email: "bob@mail.acme.com" }), true);

      const listed = await admin("dnc", "list", ...ws);
      assert.equal(listed.exitCode, 0);
      assert.equal(listed.output.workspaceId, workspaceId);
      assert.deepEqual(
        (listed.output.entries as { kind: string; value: string }[]).map((e) => [e.kind, e.value]),
        [["domain", "acme.com"], ["email", "ada@engines.example"]],
      );

      const removed = await admin("dnc", "remove", ...ws, "--domain", "acme.com");
      assert.deepEqual([removed.exitCode, removed.output.removed], [0, true]);
      const removedAgain = await admin("dnc", "remove", ...ws, "--domain", "acme.com");
      assert.deepEqual([removedAgain.exitCode, removedAgain.output.removed], [0, false]);
      assert.equal(
        await isDoNotContact({ db }, { workspaceId, email: "bob@mail.acme.com" }),
        false,
      );
      assert.deepEqual(
        ((await admin("dnc", "list", ...ws)).output.entries as { value: string }[])
          .map((e) => e.value),
        ["ada@engines.example"],
      );

      for (
        const [args, message] of [
          [["dnc", "add", ...ws], /give exactly one of --email or --domain/],
          [
            ["dnc", "add", ...ws, "--email", "a@acme.com", "--domain", "acme.com"],
            /give exactly one of --email or --domain/,
          ],
          [["dnc", "remove", ...ws], /give exactly one of --email or --domain/],
          [["dnc", "add", "--domain", "acme.com"], /--workspace is required/],
          [["dnc", "list"], /--workspace is required/],
          [["dnc", "add", ...ws, "--email", "not an address"], /--email must be one address/],
          [["dnc", "add", ...ws, "--domain", "https://acme.com/"], /--domain must be a host name/],
          [["dnc", "add", ...ws, "--domain", "co.uk"], /--domain must not be a public suffix/],
          [["dnc", "list", ...ws, "--email", "a@acme.com"], /Unknown option|email/],
          [["dnc", "block", ...ws], /unknown command/],
        ] as [string[], RegExp][]
      ) {
        const result = await admin(...args);
        assert.equal(result.exitCode, 2, args.join(" "));
        assert.match(result.message, message, args.join(" "));
        assert.match(result.message, /dnc add --workspace ID/, "the usage text follows");
      }
      for (
        const args of [
          ["dnc", "add", "--workspace", "ws_nope", "--domain", "acme.com"],
          ["dnc", "remove", "--workspace", "ws_nope", "--email", "a@acme.com"],
          ["dnc", "list", "--workspace", "ws_nope"],
        ]
      ) {
        const missing = await admin(...args);
        assert.equal(missing.exitCode, 1, args.join(" "));
        assert.match(missing.message, /No workspace with id ws_nope/);
      }
    } finally {
      await db.close();
      await running.stop();
      await running.cleanup();
    }
  },
);
