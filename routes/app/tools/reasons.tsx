/**
 * Why a tool delivered nothing, as a person reads it: each `reason` the API can give has its own
 * badge (a short label and a tone) and one plain sentence, the same on every tool page. A refusal
 * (the do-not-contact list, a malformed input) never looks like a completed "not found".
 *
 * A reason shared by several tools keeps one badge; its sentence may differ by tool where the
 * consequence differs (a find's "not found" is a charged lookup, an enrichment's too, but they
 * failed at different things). A new reason is one entry in `REASONS`; a reason this version does
 * not know still gets a badge that says it was not answered.
 */
import type { FindReason } from "../../../domain/find/find_answer.ts";
import type { EnrichReason } from "../../../domain/enrich/enrich_answer.ts";
import type { NetworkSearchReason } from "../../../domain/network_search/search_network.ts";
import type { VerifyReason } from "../../../domain/verify_email/verify_answer.ts";

/**
 * The reasons an address check gives (`POST /api/v1/verify`, the verify tool, bulk verify rows):
 * the verb's own type, so a reason added there must be named here before this compiles.
 */
export type { VerifyReason };

export type ReasonTool = "find" | "enrich" | "network-search" | "verify";

/** `bad`: looked and found nothing. `warn`: could not be answered now or here. `stop`: refused. */
export type ReasonTone = "bad" | "warn" | "stop";

interface ReasonWords {
  badge: string;
  tone: ReasonTone;
  /** The sentence on every tool, unless the tool has its own under its name. */
  says: string;
  on?: Partial<Record<ReasonTool, string>>;
}

export type KnownReason = FindReason | EnrichReason | NetworkSearchReason | VerifyReason;

const TRY_LATER = "Nothing was charged; try again later.";

export const REASONS: Record<KnownReason, ReasonWords> = {
  "not-found": {
    badge: "Not found",
    tone: "bad",
    says: "Nothing was found. The work was done, so it is charged.",
    on: {
      find:
        "The company’s mail server rejected every likely address for this person. The lookup was completed, so it is charged.",
      enrich:
        "No source knows a person behind this address. The enrichment was completed, so it is charged.",
    },
  },
  "catch-all": {
    badge: "Catch-all",
    tone: "warn",
    says:
      "The company’s mail server accepts every address, so no address can be confirmed for this person. The lookup was completed, so it is charged.",
    on: {
      verify:
        "The domain’s mail server accepted a random address too, so whether this mailbox exists cannot be told. Mail may still be delivered.",
    },
  },
  "unusable-domain": {
    badge: "No mail domain",
    tone: "warn",
    says:
      "This domain cannot receive email from the internet: it does not exist, has no mail server (or only one on an internal network address), or says it takes no mail. No email search ran.",
  },
  "free-mail-domain": {
    badge: "Free mail provider",
    tone: "warn",
    says:
      "This is a free mailbox provider (such as gmail.com): anyone can open an address there, so no work email can be found at it, and a guess would be someone else’s personal mailbox. No email search ran.",
  },
  "disposable-domain": {
    badge: "Throwaway domain",
    tone: "warn",
    says:
      "This is a throwaway-address service: nobody’s work email lives there. No email search ran.",
  },
  "do-not-contact": {
    badge: "Do not contact",
    tone: "stop",
    says:
      "This is on your workspace’s do-not-contact list, so nothing was looked up or sent to any source. Nothing was charged.",
    on: {
      find:
        "This person or domain is on your workspace’s do-not-contact list, so no address is looked up or delivered. Nothing was charged.",
      enrich:
        "This address or its domain is on your do-not-contact list, so nothing was sent to any source. Nothing was charged.",
      verify:
        "This address or its domain is on your do-not-contact list, or its owner asked the service not to be contacted, so no mail server was asked. Nothing was charged.",
    },
  },
  "verification-unavailable": {
    badge: "Not checked",
    tone: "warn",
    says:
      "The check could not be made right now: the domain’s DNS could not answer, or the mail server delayed or blocked us, could not be reached or did not answer in time (or the company lookup did not answer). Nothing was charged for the email; try again later.",
  },
  "company-not-found": {
    badge: "Company not found",
    tone: "bad",
    says:
      "No web domain was found for this company name, so no email search ran. Looking up the company is charged.",
  },
  "profile-not-found": {
    badge: "Profile not found",
    tone: "bad",
    says:
      "This profile is not known to our directory or the web search, so there is nobody to look up.",
  },
  "invalid-input": {
    badge: "Invalid input",
    tone: "stop",
    says: "The input could not be read, so nothing was looked up.",
    on: {
      find:
        "The name could not be read as a given name and a surname, so no address could be built from it.",
      enrich: "This is not a well-formed email address, so nothing was looked up.",
    },
  },
  "insufficient-credits": {
    badge: "Not enough points",
    tone: "stop",
    says: "Not enough points for this. Nothing was charged.",
    on: { verify: "Not enough points for this verification. Nothing was charged." },
  },
  "source-rate-limited": {
    badge: "Source busy",
    tone: "warn",
    says:
      `A source (Gravatar, GitHub or the web search) is limiting our requests right now, so nothing was delivered. ${TRY_LATER}`,
  },
  "source-timeout": {
    badge: "Source too slow",
    tone: "warn",
    says:
      `A source (Gravatar, GitHub or the web search) did not answer in time, so nothing was delivered. ${TRY_LATER}`,
  },
  "source-error": {
    badge: "Source failed",
    tone: "warn",
    says:
      `A source (Gravatar, GitHub or the web search) answered with an error, so nothing was delivered. ${TRY_LATER}`,
  },
  "search-unavailable": {
    badge: "Search unavailable",
    tone: "warn",
    says:
      `The web search could not answer right now (it was busy, failed or did not answer in time). ${TRY_LATER}`,
  },
  // The verify tool's own (`VerifyReason`); `catch-all`, `do-not-contact` and
  // `insufficient-credits` are above, with their verify sentences.
  "mailbox-not-found": {
    badge: "No such mailbox",
    tone: "bad",
    says: "The domain’s mail server says this mailbox does not exist, so mail to it would bounce.",
  },
  "domain-not-found": {
    badge: "No such domain",
    tone: "bad",
    says: "The domain of this address does not exist (NXDOMAIN), so no mail can reach it.",
  },
  "null-mx": {
    badge: "Takes no mail",
    tone: "bad",
    says:
      "The domain publishes that it accepts no mail (a null MX), so no mail can reach this address.",
  },
  "no-mail-server": {
    badge: "No mail server",
    tone: "bad",
    says:
      "The domain has no mail server anyone on the internet can reach (no MX and no address, or MX hosts that do not exist), so no mail can reach this address.",
  },
  "invalid-syntax": {
    badge: "Malformed address",
    tone: "stop",
    says: "This is not a well-formed email address, so nothing was asked. Nothing was charged.",
  },
  "greylisted": {
    badge: "Asked to wait",
    tone: "warn",
    says:
      "The mail server asked us to come back later (greylisting), also after one retry, so the mailbox could not be confirmed yet. Nothing was charged; try again in a few minutes.",
  },
  "sender-rejected": {
    badge: "Check refused",
    tone: "warn",
    says:
      `The mail server refused our sender address, which says nothing about this mailbox. ${TRY_LATER}`,
  },
  "client-rejected": {
    badge: "Server refused us",
    tone: "warn",
    says:
      `The mail server refused to talk to our server (a policy or block list), which says nothing about this mailbox. ${TRY_LATER}`,
  },
  "mail-server-unreachable": {
    badge: "Server unreachable",
    tone: "warn",
    says: `No mail server of the domain could be reached now. ${TRY_LATER}`,
  },
  "timeout": {
    badge: "Timed out",
    tone: "warn",
    says:
      `The mail server did not answer in time, so the mailbox could not be checked. ${TRY_LATER}`,
  },
  "dns-error": {
    badge: "DNS failed",
    tone: "warn",
    says: `DNS could not answer now, so the address could not be checked. ${TRY_LATER}`,
  },
  "tls-error": {
    badge: "TLS failed",
    tone: "warn",
    says:
      `The encrypted connection to the mail server failed, so the mailbox could not be checked. ${TRY_LATER}`,
  },
  "unexpected-reply": {
    badge: "Unclear reply",
    tone: "warn",
    says: `The mail server answered something that says neither yes nor no. ${TRY_LATER}`,
  },
  "verifier-unavailable": {
    badge: "Verifier unavailable",
    tone: "warn",
    says: `The verifier could not be asked now. ${TRY_LATER}`,
  },
};

function wordsOf(reason: string): ReasonWords {
  return Object.hasOwn(REASONS, reason) ? REASONS[reason as KnownReason] : {
    badge: "Not answered",
    tone: "warn",
    says: "No answer was delivered.",
  };
}

/** The sentence for a reason on a tool's page. */
export function reasonSentence(tool: ReasonTool, reason: string): string {
  const words = wordsOf(reason);
  return words.on?.[tool] ?? words.says;
}

/** The badge of a reason, for an answer's heading or a table row. */
export function ReasonBadge(props: { reason: string }) {
  const words = wordsOf(props.reason);
  return <span class={`badge ${words.tone}`} data-reason={props.reason}>{words.badge}</span>;
}

/**
 * The reason's sentence under an answer (a link to the list for a do-not-contact refusal), and
 * what the answer adds to it (`after`: verify's "Retry after about 300 seconds.").
 */
export function ReasonSentence(props: { tool: ReasonTool; reason: string; after?: string }) {
  return (
    <p class="tool-reason" data-reason={props.reason}>
      {reasonSentence(props.tool, props.reason)}
      {props.after ? ` ${props.after}` : null}
      {props.reason === "do-not-contact"
        ? (
          <>
            {" "}
            <a href="/app/do-not-contact">See the list</a>.
          </>
        )
        : null}
    </p>
  );
}
