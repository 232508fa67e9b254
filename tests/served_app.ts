/** The app served on 127.0.0.1 (an ephemeral port) with two people in its directory. */
import { createTestEnv, type TestEnv, type TestEnvOptions } from "./harness.ts";
import { importProfiles } from "./profiles.ts";

export async function withServedApp(
  options: TestEnvOptions,
  body: (env: TestEnv, base: string) => Promise<void>,
): Promise<void> {
  const env = await createTestEnv(options);
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, env.app.fetch);
  try {
    await importProfiles(env);
    await body(env, `http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
    await env.close();
  }
}
