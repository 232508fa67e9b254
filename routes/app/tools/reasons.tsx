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

/** The reasons an address check gives (the verify tool's own). */
export type VerifyReason =
  | "mailbox-not-found"
  | "domain-not-found"
  | "no-mail-server"
  | "invalid-syntax"
  | "catch-all"
  | "greylisted"
  | "sender-rejected"
  | "timeout";

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
        "The domain’s mail server accepts every address, so whether this mailbox exists cannot be told.",
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
  "mailbox-not-found": {
    badge: "No such mailbox",
    tone: "bad",
    says: "The domain’s mail server says this mailbox does not exist.",
  },
  "domain-not-found": {
    badge: "No such domain",
    tone: "bad",
    says: "The domain of this address does not exist, so no mail can reach it.",
  },
  "no-mail-server": {
    badge: "No mail server",
    tone: "bad",
    says: "The domain exists but names no mail server, so no mail can reach this address.",
  },
  "invalid-syntax": {
    badge: "Malformed address",
    tone: "stop",
    says: "This is not a well-formed email address, so it was not checked.",
  },
  "greylisted": {
    badge: "Asked to wait",
    tone: "warn",
    says:
      "The mail server asked us to come back later (greylisting), so the mailbox could not be confirmed yet. Try again in a few minutes.",
  },
  "sender-rejected": {
    badge: "Check refused",
    tone: "warn",
    says:
      "The mail server refused to talk to our checking address, so the mailbox could not be checked.",
  },
  "timeout": {
    badge: "Timed out",
    tone: "warn",
    says: "The mail server did not answer in time, so the mailbox could not be checked.",
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

/** The reason's sentence under an answer (a link to the list for a do-not-contact refusal). */
export function ReasonSentence(props: { tool: ReasonTool; reason: string }) {
  return (
    <p class="tool-reason" data-reason={props.reason}>
      {reasonSentence(props.tool, props.reason)}
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
