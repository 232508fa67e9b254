/**
 * An endpoint URL the service may post to: https (http only where private addresses are allowed,
 * for tests), no credentials in it, and a host whose every address is global (the verifier's rule
 * for MX hosts): a webhook must not become a way to reach the service's own network. Checked when
 * the endpoint is registered and again before every delivery (DNS may have changed).
 */
import { isPublicAddress } from "../verify/mod.ts";
import { ServiceError } from "../errors.ts";
import type { WebhookSettings } from "./webhook_settings.ts";

export type ResolveAddresses = (host: string) => Promise<string[]>;

export async function resolveHostAddresses(host: string): Promise<string[]> {
  const signal = AbortSignal.timeout(5_000);
  const answers = await Promise.allSettled([
    Deno.resolveDns(host, "A", { signal }),
    Deno.resolveDns(host, "AAAA", { signal }),
  ]);
  return answers.flatMap((answer) => answer.status === "fulfilled" ? answer.value : []);
}

/** The problem with `url` as an endpoint, or null when it may be posted to. */
export async function webhookUrlProblem(
  url: string,
  settings: WebhookSettings,
  resolve: ResolveAddresses = resolveHostAddresses,
): Promise<string | null> {
  if (!URL.canParse(url)) return "url must be an absolute URL";
  const parsed = new URL(url);
  const schemes = settings.allowPrivateAddresses ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(parsed.protocol)) return "url must be an https URL";
  if (parsed.username || parsed.password) return "url must not carry credentials";
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  const literal = /^[\d.]+$/.test(host) || host.includes(":");
  const addresses = literal ? [host] : await resolve(host).catch(() => []);
  if (addresses.length === 0) return "url's host does not resolve";
  if (!settings.allowPrivateAddresses && !addresses.every(isPublicAddress)) {
    return "url's host must resolve to global addresses only";
  }
  return null;
}

export async function checkWebhookUrl(
  url: string,
  settings: WebhookSettings,
  resolve?: ResolveAddresses,
): Promise<void> {
  const problem = await webhookUrlProblem(url, settings, resolve);
  if (problem) throw new ServiceError("validation_error", problem);
}
