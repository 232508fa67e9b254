/**
 * Whether a trimmed, lower-cased string is a well-formed address: a dot-atom local part (RFC 5322
 * atext, at most 64 characters, no leading, trailing or doubled dot) and a host name of at least
 * two labels. Quoted local parts and address literals are not accepted (no mailbox anyone finds
 * by name uses them).
 */
const LOCAL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export function isEmailAddress(value: string): boolean {
  if (value.length > 254) return false;
  const at = value.lastIndexOf("@");
  if (at <= 0 || at > 64) return false;
  const local = value.slice(0, at);
  const labels = value.slice(at + 1).split(".");
  return LOCAL.test(local) && labels.length >= 2 && labels.every((label) => LABEL.test(label)) &&
    !/^\d+$/.test(labels[labels.length - 1]);
}
