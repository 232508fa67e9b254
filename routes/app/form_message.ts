/**
 * A verb's `validation_error` message as a sentence of the page: its leading field name in the
 * form's words (`expiry must be…` → `Expiry date must be…`), a capital letter, a full stop.
 */
export function inSentence(message: string, labels: Record<string, string> = {}): string {
  const worded = message.replace(/^([A-Za-z]+)\b/, (word) => labels[word] ?? word);
  const capital = worded.charAt(0).toUpperCase() + worded.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
