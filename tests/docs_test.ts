/**
 * `/docs`, the API reference: a public page whose scripts and styles all come from this origin
 * (Swagger UI from swagger-ui-dist, served by the app), and the curl example every operation of
 * the OpenAPI document carries, run for real against the route it documents.
 */
import assert from "node:assert/strict";
import { createTestEnv, createTestWorkspace, DB_TEST, type TestEnv } from "./harness.ts";

type Operation = {
  operationId?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; schema?: { example?: unknown } }[];
  requestBody?: unknown;
  "x-codeSamples"?: { lang: string; label: string; source: string }[];
};
type Document = { paths: Record<string, Record<string, Operation>> };

async function withEnv(run: (env: TestEnv) => Promise<void>): Promise<void> {
  const env = await createTestEnv();
  try {
    await run(env);
  } finally {
    await env.close();
  }
}

/** The `src` and `href` of every element of the page. */
function references(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href)\s*=\s*"([^"]*)"/g)].map((match) => match[1]);
}

Deno.test(
  "/docs: a public HTML page with only same-origin scripts and styles",
  DB_TEST,
  () =>
    withEnv(async (env) => {
      const res = await env.app.request("/docs");
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
      const csp = res.headers.get("content-security-policy") ?? "";
      assert.match(csp, /default-src 'self'/);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.doesNotMatch(csp, /unsafe-eval/);
      const html = await res.text();

      // No URL to any other host: not in an attribute, not anywhere in the page.
      assert.deepEqual(html.match(/(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}/gi), null);
      const refs = references(html);
      assert.ok(refs.length >= 5, `references: ${refs.join(", ")}`);
      for (const ref of refs) {
        assert.ok(
          (ref.startsWith("/") && !ref.startsWith("//")) || ref.startsWith("data:"),
          `same-origin reference: ${ref}`,
        );
      }
      assert.ok(refs.includes("/app"), "a link back to the app");
      assert.match(html, /← Back to the app/);
      assert.match(html, /<title>[^<]*API reference[^<]*<\/title>/);
      assert.match(html, /id="swagger-ui"/);
      // No inline script (the CSP would refuse it): every <script> has a src.
      for (const script of html.match(/<script\b[^>]*>/g) ?? []) assert.match(script, /\bsrc="/);

      // The page is not an operation of the API.
      const document: Document = await (await env.app.request("/api/v1/openapi.json")).json();
      assert.deepEqual(Object.keys(document.paths).filter((path) => path.startsWith("/docs")), []);
    }),
);

Deno.test(
  "/docs assets: JS and CSS from swagger-ui-dist, cached by version",
  DB_TEST,
  () =>
    withEnv(async (env) => {
      const html = await (await env.app.request("/docs")).text();
      const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
      const styles = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]);
      assert.ok(scripts.some((src) => src.startsWith("/docs/assets/swagger-ui-bundle.js?v=")));
      assert.ok(styles.some((href) => href.startsWith("/docs/assets/swagger-ui.css?v=")));

      const bodies = new Map<string, string>();
      for (
        const [url, type] of [
          ...scripts.map((url) => [url, /^text\/javascript/] as const),
          ...styles.map((url) => [url, /^text\/css/] as const),
        ]
      ) {
        const res = await env.app.request(url);
        assert.equal(res.status, 200, url);
        assert.match(res.headers.get("content-type") ?? "", type, url);
        assert.match(res.headers.get("cache-control") ?? "", /max-age=31536000.*immutable/, url);
        assert.equal(res.headers.get("x-content-type-options"), "nosniff");
        const body = await res.text();
        assert.ok(body.length > 300, `${url}: ${body.length} characters`);
        bodies.set(url.replace(/\?.*/, ""), body);
      }
      const bundle = bodies.get("/docs/assets/swagger-ui-bundle.js")!;
      assert.ok(bundle.length > 1_000_000 && bundle.includes("SwaggerUIBundle"), "the real bundle");
      assert.ok(bodies.get("/docs/assets/swagger-ui.css")!.includes(".swagger-ui"), "its styles");
      const init = bodies.get("/docs/assets/docs.js")!;
      // The document is fetched and handed over with this page's origin as its one server.
      assert.match(init, /fetch\("\/api\/v1\/openapi\.json"/);
      assert.match(init, /spec\.servers = \[\{ url: servedFrom/);
      assert.match(init, /deepLinking: false/);
      assert.match(init, /validatorUrl: null/);
      assert.match(init, /tryItOutEnabled: false/);

      // Without its current version the file is revalidated, not pinned for a year.
      const unversioned = await env.app.request("/docs/assets/swagger-ui-bundle.js");
      assert.equal(unversioned.headers.get("cache-control"), "no-cache");
      const etag = unversioned.headers.get("etag")!;
      await unversioned.body?.cancel();
      const revalidated = await env.app.request("/docs/assets/swagger-ui-bundle.js", {
        headers: { "If-None-Match": etag },
      });
      assert.equal(revalidated.status, 304);

      // Gzipped for a client that takes it, the same file once unpacked.
      const gzipped = await env.app.request(scripts[0], { headers: { "Accept-Encoding": "gzip" } });
      assert.equal(gzipped.headers.get("content-encoding"), "gzip");
      const packed = new Uint8Array(await gzipped.arrayBuffer());
      assert.ok(packed.length < bundle.length / 2, `${packed.length} bytes gzipped`);
      const unpacked = await new Response(
        new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip")),
      ).text();
      assert.equal(unpacked, bodies.get(scripts[0].replace(/\?.*/, "")));
    }),
);

/** One command of a curl example: `\`-newline continuations, quotes, `$BASE` and `$KEY`. */
function parseCurl(source: string, variables: Record<string, string>) {
  const words: string[] = [];
  let word: string | null = null;
  let quote: "'" | '"' | null = null;
  const text = source.replaceAll("\\\n", " ");
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quote === "'") {
      if (char === "'") quote = null;
      else word += char;
      continue;
    }
    if (char === "$") {
      const name = /^[A-Z_]+/.exec(text.slice(i + 1))![0];
      assert.ok(name in variables, `unknown variable $${name}`);
      word = (word ?? "") + variables[name];
      i += name.length;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = null;
      else word += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      word ??= "";
    } else if (/\s/.test(char)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? "") + char;
    }
  }
  assert.equal(quote, null, "balanced quotes");
  if (word !== null) words.push(word);

  assert.equal(words.shift(), "curl");
  let method: string | null = null;
  let url: string | null = null;
  let data: string | undefined;
  const headers = new Headers();
  while (words.length > 0) {
    const option = words.shift()!;
    if (option === "-X") method = words.shift()!;
    else if (option === "-H") {
      const header = words.shift()!;
      const colon = header.indexOf(":");
      headers.set(header.slice(0, colon).trim(), header.slice(colon + 1).trim());
    } else if (option === "-d") data = words.shift()!;
    else {
      assert.ok(!option.startsWith("-"), `unexpected option ${option}`);
      assert.equal(url, null, "one URL");
      url = option;
    }
  }
  assert.ok(url, "a URL");
  return { method: method ?? (data === undefined ? "GET" : "POST"), url, headers, data };
}

Deno.test(
  "openapi.json: every operation has a curl example that its route accepts",
  DB_TEST,
  () =>
    withEnv(async (env) => {
      const { apiKey } = await createTestWorkspace(env, 1000);
      const document: Document = await (await env.app.request("/api/v1/openapi.json")).json();
      let operations = 0;
      for (const [path, methods] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(methods)) {
          operations++;
          const where = `${method.toUpperCase()} ${path}`;
          const samples = operation["x-codeSamples"] ?? [];
          assert.equal(samples.length, 1, where);
          const [sample] = samples;
          assert.equal(sample.lang, "Shell", where);
          assert.equal(sample.label, "curl", where);
          // The same command closes the description, where Swagger UI shows it.
          assert.ok(
            operation.description?.endsWith("#### Example\n\n```sh\n" + sample.source + "\n```"),
            `${where}: description ends with the example`,
          );

          const curl = parseCurl(sample.source, { BASE: "http://localhost:8787", KEY: apiKey });
          assert.equal(curl.method, method.toUpperCase(), where);
          const url = new URL(curl.url);
          assert.equal(url.origin, "http://localhost:8787", where);
          const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/{}<>]+")}$`);
          assert.match(url.pathname, pattern, where);
          const parameters = operation.parameters ?? [];
          for (const name of url.searchParams.keys()) {
            assert.ok(parameters.some((p) => p.in === "query" && p.name === name), where);
          }

          const secured = (operation.security ?? []).length > 0;
          assert.equal(curl.headers.get("authorization"), secured ? `Bearer ${apiKey}` : null);
          const idempotency = parameters.find((p) => p.name === "idempotency-key");
          assert.equal(curl.headers.has("idempotency-key"), idempotency !== undefined, where);
          for (const p of parameters.filter((p) => p.in === "header" && p.required)) {
            assert.ok(curl.headers.has(p.name), `${where}: required header ${p.name}`);
          }

          assert.equal(curl.data !== undefined, operation.requestBody !== undefined, where);
          if (curl.data !== undefined) {
            assert.equal(curl.headers.get("content-type"), "application/json", where);
            const body = JSON.parse(curl.data);
            assert.equal(typeof body, "object", `${where}: a JSON object`);
          }

          // Sent as written (the key from the harness for $KEY): the route accepts it.
          const res = await env.app.request(url.pathname + url.search, {
            method: curl.method,
            headers: curl.headers,
            body: curl.data,
          });
          const answer = await res.text();
          assert.notEqual(res.status, 400, `${where}: ${answer}`);
          assert.notEqual(res.status, 401, `${where}: ${answer}`);
          assert.ok(res.status < 500, `${where}: ${res.status} ${answer}`);
          // A body is answered, except that an example run id names no run of this workspace.
          const expected = path.includes("{runId}") ? 404 : 200;
          if (curl.data !== undefined) assert.equal(res.status, expected, `${where}: ${answer}`);
        }
      }
      assert.ok(operations >= 10, `${operations} operations`);
    }),
);

Deno.test(
  "openapi.json: a curl example's placeholders travel with the document's examples",
  DB_TEST,
  () =>
    withEnv(async (env) => {
      const document: Document = await (await env.app.request("/api/v1/openapi.json")).json();
      const run = document.paths["/api/v1/lead-search/runs/{runId}"].get;
      const runId = run.parameters!.find((p) => p.name === "runId")!.schema!.example as string;
      assert.match(run["x-codeSamples"]![0].source, new RegExp(`/runs/${runId}\\b`));
      const health = document.paths["/healthz"].get;
      assert.doesNotMatch(health["x-codeSamples"]![0].source, /Authorization/);
      const batch = document.paths["/api/v1/name/parse/batch"].post;
      assert.match(batch["x-codeSamples"]![0].source, /-H 'Idempotency-Key: [^']+'/);
    }),
);

/** README.md and every page under docs/, as [path, text]. */
async function documentationPages(): Promise<[URL, string][]> {
  const root = new URL("../", import.meta.url);
  const pages: URL[] = [new URL("README.md", root)];
  const walk = async (dir: URL) => {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isDirectory) await walk(new URL(`${entry.name}/`, dir));
      else if (entry.name.endsWith(".md")) pages.push(new URL(entry.name, dir));
    }
  };
  await walk(new URL("docs/", root));
  return await Promise.all(pages.map(async (page) => [page, await Deno.readTextFile(page)]));
}

Deno.test("README and docs/: every relative link points at an existing file", async () => {
  const pages = await documentationPages();
  assert.ok(pages.length >= 10, `${pages.length} pages`);
  let links = 0;
  for (const [page, text] of pages) {
    // Links and images, outside code: [text](target) and ![alt](target).
    const prose = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#")) continue;
      links++;
      const path = decodeURIComponent(target.replace(/#.*$/, ""));
      const resolved = new URL(path, page);
      const exists = await Deno.stat(resolved).then(() => true, () => false);
      assert.ok(exists, `${page.pathname}: the link ${target} points at nothing`);
    }
  }
  assert.ok(links >= 30, `${links} relative links checked`);
});

Deno.test("README: at most 200 lines, with the two commands and a link to every docs page", async () => {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const lines = readme.split("\n").length - (readme.endsWith("\n") ? 1 : 0);
  assert.ok(lines <= 200, `README.md has ${lines} lines`);
  assert.match(readme, /npx -y deno@2 task start/);
  assert.match(readme, /npx -y deno@2 task test/);
  for await (const entry of Deno.readDir(new URL("../docs/", import.meta.url))) {
    if (entry.isFile && entry.name.endsWith(".md")) {
      assert.ok(readme.includes(`](docs/${entry.name})`), `README links docs/${entry.name}`);
    }
  }
});

Deno.test("README and docs/: reference, not history (history goes to CHANGELOG.md)", async () => {
  for (const [page, text] of await documentationPages()) {
    // The first decision record tells what prompted it; every other page describes what is.
    if (page.pathname.endsWith("/0001-verify-as-mail-servers-do.md")) continue;
    for (const pattern of [/\buntil 20\d\d-\d\d-\d\d/i, /\b(?:since |before )?issue \d+\b/i]) {
      const found = pattern.exec(text);
      assert.equal(found, null, `${page.pathname}: "${found?.[0]}" belongs in CHANGELOG.md`);
    }
  }
});

Deno.test("README and docs/: every flag of an `npx -y deno@2 …` command reaches Deno, not Node", async () => {
  // npx hands options Node knows (`--env-file`, `--require`, …) to Node, even after the package's
  // arguments: such a line works with an installed `deno` and fails on a machine with only Node.
  const help = new Deno.Command("node", { args: ["--help"], stdout: "piped", stderr: "null" });
  const nodeHelp = await help.output().then(
    (out) => new TextDecoder().decode(out.stdout),
    () => null,
  );
  if (nodeHelp === null) {
    console.log("no node on this machine: the npx lines are not checked against its options");
    return;
  }
  const nodeOptions = new Set(nodeHelp.match(/--[a-z][a-z-]*/g) ?? []);
  assert.ok(nodeOptions.has("--env-file"), "node --help lists its options");
  let flags = 0;
  for (const [page, text] of await documentationPages()) {
    for (const line of text.matchAll(/npx -y deno@2 [^#&|;\n]*/g)) {
      for (const flag of line[0].match(/ --[a-z][a-z-]*/g) ?? []) {
        flags++;
        assert.ok(
          !nodeOptions.has(flag.trim()),
          `${page.pathname}: "${line[0].trim()}": npx gives ${flag.trim()} to Node`,
        );
      }
    }
  }
  assert.ok(flags >= 5, `${flags} flags checked`);
});
