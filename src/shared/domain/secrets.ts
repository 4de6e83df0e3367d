/** What a secret is replaced with wherever text leaves the service (error messages, logs). */
export const REDACTED = '[redacted]';

/** API keys (`svc_live_…`) and webhook signing secrets (`whsec_…`), in any letter case. */
const SECRET_PREFIX = /svc_live_|whsec_/i;

/** A webhook signing secret as written: `whsec_` and base64, whose `+`, `/` and `=` end no word. */
const WEBHOOK_SECRET = /whsec_[0-9A-Za-z+/=]*/gi;

/** Candidate words: runs of the characters keys are made of, with percent-escapes. */
const WORD = /[0-9A-Za-z_%]+/g;

const ESCAPE = /%([0-9A-Fa-f]{2})/g;

/** Decodes percent-escapes leniently (an invalid escape stays as it is), as often as they nest. */
function decodeEscapes(word: string): string {
  let decoded = word;
  for (let pass = 0; pass < 4 && decoded.includes('%'); pass++) {
    const next = decoded.replace(ESCAPE, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === decoded) break;
    decoded = next;
  }
  return decoded;
}

/**
 * The text with every word that is, or decodes to, something shaped like a secret replaced by
 * `[redacted]`: `svc_live_…`, `SVC_LIVE_…`, `svc%5Flive%5F…`, `%73vc_live_…` and the same inside
 * a longer word (`activities[0].svc_live_…` keeps `activities[0].`). Cheap when there is nothing
 * to find: one scan for `%`, `svc` or `whsec` decides.
 */
export function redactSecrets(text: string): string {
  if (!/%|svc|whsec/i.test(text)) return text;
  return text
    .replace(WEBHOOK_SECRET, REDACTED)
    .replace(WORD, (word) => (SECRET_PREFIX.test(word.includes('%') ? decodeEscapes(word) : word) ? REDACTED : word));
}
