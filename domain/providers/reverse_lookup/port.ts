/**
 * A reverse-lookup source as a port (Gravatar profiles, GitHub users): an email address in, what
 * the source publicly states about its owner out. Enrich asks each in turn. Only fields a source
 * states are returned; phone numbers are dropped at the edge and never leave the adapter. A
 * provider failure is a value, never an exception.
 */

/** What one source stated about the owner of an address (absent: the source did not say). */
export interface StatedFields {
  name?: string;
  given?: string;
  surname?: string;
  title?: string;
  companyName?: string;
  /** A company website or domain the source states (e.g. GitHub's `blog`, Gravatar links). */
  companyWebsite?: string;
  location?: string;
  headline?: string;
  /** A professional-network profile URL the source links to. */
  networkUrl?: string;
  /** The source's own profile page of this person. */
  profileUrl?: string;
  /** X (Twitter) handle without `@`. */
  x?: string;
  /** Telegram handle without `@`. */
  telegram?: string;
  /** Other addresses the source associates with the person (never the asked one). */
  associatedEmails?: string[];
}

export type ReverseLookupUnavailable = "rate-limited" | "bad-key" | "provider-error" | "timeout";

export type ReverseLookupAnswer =
  | { kind: "found"; fields: StatedFields }
  | { kind: "not-found" }
  | {
    kind: "unavailable";
    why: ReverseLookupUnavailable;
    /**
     * What went wrong, for logs (`GitHub answered HTTP 503 to the user search`). It never holds
     * the address, its hash, a request URL or the provider's own error text.
     */
    message?: string;
  };

export interface ReverseLookup {
  /** `gravatar` or `github`: named in `sources`. */
  readonly source: string;
  /** `email` is already trimmed and lower-cased. */
  lookup(email: string): Promise<ReverseLookupAnswer>;
}
