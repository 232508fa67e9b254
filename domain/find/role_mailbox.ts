/**
 * Shared (role) mailboxes: a local part that names a function, a team or a system (`info`,
 * `sales`, `support`, `postmaster`, `noreply`, `jobs`, …) rather than a person. Find never asks a
 * mail server about one for a named person, never delivers one as a person's address (a server
 * accepting `info@` says nothing about "Info Smith"), and never learns a domain's pattern from one.
 *
 * The list is `role-based-email-addresses` (Mixmax, MIT: ~1,000 prefixes in four groups,
 * marketing, notification, meeting and other), read into a set once, on first use. A local part
 * counts when it is on the list as a whole, ignoring case and a `+tag` (`Info+news@` is `info@`);
 * a name that merely contains such a word (`info.smith`, `jobsen`) is not a role mailbox.
 */
import roles from "role-based-email-addresses";

let set: ReadonlySet<string> | null = null;

function roleSet(): ReadonlySet<string> {
  set ??= new Set((roles as readonly string[]).map((r) => r.trim().toLowerCase()).filter(Boolean));
  return set;
}

/** True when `address` (an address, or its local part alone) is a shared role mailbox. */
export function isRoleMailbox(address: string): boolean {
  const at = address.lastIndexOf("@");
  const local = (at >= 0 ? address.slice(0, at) : address).trim().toLowerCase()
    .replace(/\+.*$/s, "");
  return local !== "" && roleSet().has(local);
}
