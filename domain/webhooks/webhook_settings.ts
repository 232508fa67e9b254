/** How webhooks are sent (`WEBHOOK_*`). */
export interface WebhookSettings {
  /**
   * `WEBHOOK_ALLOW_PRIVATE_ADDRESSES` (tests only): endpoints may resolve to loopback or private
   * addresses, and use plain http. Otherwise an endpoint must be https at global addresses, the
   * verifier's rule for mail hosts: the service never posts into its own network.
   */
  allowPrivateAddresses: boolean;
  /** `WEBHOOK_TIMEOUT_SECONDS`: how long one delivery attempt may take (default 15). */
  timeoutMs: number;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  allowPrivateAddresses: false,
  timeoutMs: 15_000,
};

/**
 * The waits before each retry, after the first attempt failed: about three days in all, as
 * Standard Webhooks senders do (5 s, 5 min, 30 min, 2 h, 5 h, then every 10 h).
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  ...Array.from({ length: 6 }, () => 10 * 3_600_000),
];
