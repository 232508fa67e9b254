/**
 * A provider's snippet or title (`<strong>Ada</strong> Lovelace &amp; Co&#x27;s …`) → plain text:
 * tags and comments removed (a block tag such as `<br>` or `<p>` leaves a space, an inline one
 * such as `<strong>` nothing, so a highlighted part of a word stays one word), then entities
 * decoded in one pass (`&amp;lt;` becomes the text `&lt;`, never `<`), then whitespace collapsed.
 *
 * Decoded: `&amp; &lt; &gt; &quot; &apos; &nbsp;` and a few typographic names, and every numeric
 * reference (`&#39;`, `&#x27;`); a reference to no character (a surrogate, beyond U+10FFFF, NUL)
 * becomes U+FFFD, an unknown name stays as written. A `<` that opens no tag (`a < b`) stays.
 */

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  middot: "·",
  bull: "•",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  laquo: "«",
  raquo: "»",
  copy: "©",
  reg: "®",
  trade: "™",
};

const BLOCK_TAGS = new Set([
  "br",
  "p",
  "div",
  "li",
  "ul",
  "ol",
  "tr",
  "td",
  "th",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "hr",
  "section",
  "article",
  "table",
]);

const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const TAG = /<\/?([a-zA-Z][a-zA-Z0-9-]*)(?:\s[^<>]*)?\/?>/g;
const ENTITY = /&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,7})|([a-zA-Z][a-zA-Z0-9]{1,31}));/g;
// Controls other than tab, newline and carriage return (those are whitespace, collapsed below).
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

export function stripHtml(text: string): string {
  const withoutTags = text
    .replace(COMMENT, " ")
    .replace(TAG, (_, name: string) => BLOCK_TAGS.has(name.toLowerCase()) ? " " : "");
  const decoded = withoutTags.replace(
    ENTITY,
    (whole, decimal?: string, hex?: string, name?: string) => {
      if (decimal !== undefined) return fromCodePoint(Number.parseInt(decimal, 10));
      if (hex !== undefined) return fromCodePoint(Number.parseInt(hex, 16));
      return NAMED[name!] ?? NAMED[name!.toLowerCase()] ?? whole;
    },
  );
  return decoded.replace(CONTROL, " ").replace(/\s+/gu, " ").trim();
}

function fromCodePoint(code: number): string {
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\uFFFD";
  return String.fromCodePoint(code);
}
