/**
 * The lookup examples of the README's first steps and of docs/api.md, each document's run in its
 * order on a fresh database against the fakes `deno task fakes` serves (configured from the
 * environment it prints), each answer compared with the one the document shows: every
 * `"field":value` it writes out must be in the answer (`...` and `{...}` stand for what it leaves
 * out; times are not compared). An example that drifts from what the service answers fails here.
 */
import assert from "node:assert/strict";
import { importDemoPeople } from "../domain/directory/import_demo_people.ts";
import { startFakeWorld } from "./fakes/serve_fakes.ts";
import { createConfiguredTestEnv, createTestWorkspace, DB_TEST, lookupCaller } from "./harness.ts";

/** Each document, and the headings (their start) of the sections whose shell blocks it runs. */
const DOCUMENTS = [
  { name: "README.md", sections: ["## First steps as a client"] },
  {
    name: "docs/api.md",
    sections: ["## Finding a verified work email", "## Searching profiles and enriching addresses"],
  },
];

/**
 * The lookups, whose answers the fakes decide. A name-parse example is left out: the test
 * environment's name model is not the bundled one, so its readings are not the ones shown.
 */
const LOOKUPS = [
  "/api/v1/find",
  "/api/v1/network-search",
  "/api/v1/enrich/email",
  "/api/v1/verify",
  "/api/v1/domain-search",
];

type Step =
  | { kind: "demo"; people: number }
  | { kind: "call"; path: string; body: unknown; expected: string | null; line: number };

/** The demo load and the curl calls of the sections' shell blocks, with the answers shown. */
function readSteps(readme: string, sections: string[]): Step[] {
  const steps: Step[] = [];
  const lines = readme.split("\n");
  let section = false;
  let inBlock = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith("## ")) section = sections.some((start) => line.startsWith(start));
    if (!section) continue;
    if (line.startsWith("```")) {
      inBlock = !inBlock && line.startsWith("```sh");
      continue;
    }
    if (!inBlock) continue;
    const demo = /^(?:npx -y deno@2|deno) task admin demo --people (\d+)/.exec(line);
    if (demo) steps.push({ kind: "demo", people: Number(demo[1]) });
    if (!line.startsWith("curl ")) continue;
    let command = line;
    while (command.endsWith("\\")) command = command.slice(0, -1) + lines[++i];
    const path = /localhost:8787(\/api\/v1\/[\w/-]+)/.exec(command)?.[1];
    const body = /-d '([^']*)'/.exec(command)?.[1];
    if (!path || body === undefined || !LOOKUPS.includes(path)) continue;
    const comments: string[] = [];
    while (lines[i + 1]?.startsWith("#")) comments.push(lines[++i].replace(/^#\s?/, "").trim());
    const answer = comments.findIndex((c) => c.startsWith('{"data"'));
    steps.push({
      kind: "call",
      path,
      body: JSON.parse(body),
      expected: answer < 0 ? null : comments.slice(answer).join(""),
      line: i + 1,
    });
  }
  return steps;
}

/** Every `"key":value` with a plain value (string, number, boolean, null) the text writes out. */
function statedPairs(text: string): [string, string][] {
  const pairs: [string, string][] = [];
  const pattern = /"(\w+)":("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null)(?=[,}\]])/g;
  for (const match of text.matchAll(pattern)) {
    const [, key, value] = match;
    if (/^"\d{4}-\d\d-\d\dT/.test(value)) continue; // a time: when it was run
    pairs.push([key, value]);
  }
  return pairs;
}

/** Every `key` → JSON value of a plain value anywhere in the answer. */
function answerPairs(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => answerPairs(item, into));
  else if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (inner === null || typeof inner !== "object") into.add(`${key}=${JSON.stringify(inner)}`);
      else answerPairs(inner, into);
    }
  }
  return into;
}

for (const document of DOCUMENTS) {
  Deno.test(
    `${document.name}: the lookup examples answer what it shows, in its order`,
    DB_TEST,
    async () => {
      const text = await Deno.readTextFile(new URL(`../${document.name}`, import.meta.url));
      const steps = readSteps(text, document.sections);
      const calls = steps.filter((s) => s.kind === "call");
      const where = (line: number) => `${document.name} line ${line}`;
      assert.ok(calls.length >= 3, `the examples were found (${calls.length})`);
      assert.ok(steps.find((s) => s.kind === "demo"), "the demo data is loaded");
      assert.ok(
        steps.findIndex((s) => s.kind === "demo") <
          steps.findIndex((s) => s.kind === "call" && s.path === "/api/v1/find"),
        "the demo data is loaded before the first find",
      );
      assert.ok(calls.some((c) => c.path === "/api/v1/find" && c.expected));
      assert.ok(calls.some((c) => c.path === "/api/v1/enrich/email" && c.expected));
      assert.ok(calls.some((c) => c.path === "/api/v1/network-search" && c.expected));
      if (document.name === "docs/api.md") {
        assert.ok(steps[0]?.kind === "demo", "the demo data is loaded first");
        assert.ok(calls.length >= 6, `the examples were found (${calls.length})`);
      }

      const world = await startFakeWorld();
      try {
        // The service as `deno task start` builds it from the fakes' environment.
        const env = await createConfiguredTestEnv({ ...world.env, PROVIDER_TIMEOUT_SECONDS: "5" });
        try {
          const ws = await createTestWorkspace(env, 1000);
          for (const step of steps) {
            if (step.kind === "demo") {
              await importDemoPeople(env, {
                people: step.people,
                now: new Date(env.clock.now()),
              });
              continue;
            }
            const { status, data, text } = await lookupCaller(env, ws.apiKey, step.path)(step.body);
            assert.equal(status, 200, `${where(step.line)}: ${text}`);
            if (!step.expected) continue;
            const got = answerPairs(data);
            for (const [key, value] of statedPairs(step.expected)) {
              assert.ok(
                got.has(`${key}=${value}`),
                `${where(step.line)} shows "${key}":${value}; the answer was ${text}`,
              );
            }
          }
        } finally {
          await env.close();
        }
      } finally {
        await world.close();
      }
    },
  );
}
