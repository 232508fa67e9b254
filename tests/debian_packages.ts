/**
 * Installs the Debian packages a suite needs when their programs are missing, the way CI and a
 * fresh developer machine get them: as root, with apt, non-interactively, starting no service
 * (a policy-rc.d that refuses is put in place for the install when there is none). Returns null
 * when every program is there, else one line saying why the suite cannot run; the suite then
 * says so and is skipped, never failed.
 */

export interface DebianNeed {
  /** The Debian package. */
  package: string;
  /** A program it installs (absolute path): present means installed. */
  program: string;
}

export async function ensureDebianPackages(
  needs: readonly DebianNeed[],
  options: { preseed?: string } = {},
): Promise<string | null> {
  const missing = () => needs.filter((need) => !exists(need.program)).map((need) => need.package);
  const wanted = missing();
  if (wanted.length === 0) return null;
  const how = `apt-get install -y ${wanted.join(" ")}`;
  if (Deno.build.os !== "linux" || Deno.uid() !== 0) return `not root, so no \`${how}\``;
  if (!exists("/usr/bin/apt-get")) return `no apt-get for \`${how}\``;
  // Suites running in parallel install one at a time (dpkg takes one installer at once).
  const lock = await Deno.open(`${Deno.env.get("TMPDIR") || "/tmp"}/debian_packages.lock`, {
    create: true,
    write: true,
  });
  await lock.lock(true);
  try {
    const now = missing();
    if (now.length === 0) return null;
    if (options.preseed) await run("debconf-set-selections", [], options.preseed);
    const policy = "/usr/sbin/policy-rc.d";
    const madePolicy = !exists(policy);
    if (madePolicy) await Deno.writeTextFile(policy, "#!/bin/sh\nexit 101\n", { mode: 0o755 });
    try {
      const install = ["-o", "DPkg::Lock::Timeout=300", "install", "-y", "-qq", ...now];
      if (!await run("apt-get", install)) {
        await run("apt-get", ["-o", "DPkg::Lock::Timeout=300", "update", "-qq"]);
        await run("apt-get", install);
      }
    } finally {
      if (madePolicy) await Deno.remove(policy).catch(() => {});
    }
  } finally {
    lock.close();
  }
  const still = missing();
  return still.length === 0 ? null : `\`${how}\` did not install ${still.join(", ")}`;
}

export function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

async function run(command: string, args: string[], input?: string): Promise<boolean> {
  const child = new Deno.Command(command, {
    args,
    env: { DEBIAN_FRONTEND: "noninteractive" },
    stdin: input === undefined ? "null" : "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  if (input !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(input));
    await writer.close();
  }
  return (await child.status).success;
}
