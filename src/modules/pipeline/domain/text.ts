/**
 * One normal form for every comparison the evaluator makes: descriptions are written by people
 * and Buyer data comes from many providers, so case, accents, punctuation and plurals must never
 * decide a match. Everything here is linear in the input; descriptions may be long and hostile.
 */

export interface Token {
  /** As written, accents removed: what a reasoning quotes. */
  text: string;
  /** Lowercase, accents removed. */
  word: string;
  /** `word` with a light plural strip, so "agencies" meets "agency" and "CTOs" meets "CTO". */
  stem: string;
  /** Written in capitals in the source ("US" the country, not "us" the pronoun). */
  upper: boolean;
  /** Punctuation that ends a phrase; never part of a match. */
  boundary: boolean;
}

const STEM_EXCEPTIONS: Record<string, string> = {
  aes: 'ae',
  vps: 'vp',
  ics: 'ic',
  ais: 'ai',
  hrs: 'hr',
  prs: 'pr',
  evps: 'evp',
  svps: 'svp',
  mds: 'md',
  gms: 'gm',
};

/** Words ending in "s" that are not plurals and must keep their "s". */
const STEM_KEEP = new Set([
  'saas',
  'paas',
  'iaas',
  'sales',
  'analytics',
  'logistics',
  'news',
  'devops',
  'series',
  'macos',
  'kubernetes',
  'always',
  'across',
  'towards',
  'whereas',
  'perhaps',
]);

export function stem(word: string): string {
  const exception = STEM_EXCEPTIONS[word];
  if (exception !== undefined) return exception;
  if (STEM_KEEP.has(word) || word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (/(?:ches|shes|xes)$/.test(word)) return word.slice(0, -2);
  if (/(?:ss|us|is)$/.test(word)) return word;
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** Accents removed (NFKD), so "Österreich" and "Osterreich" are one word. */
function stripAccents(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '');
}

// The em dash is a boundary too: nothing spans "makers only — no resellers".
const TOKEN = /[\p{L}\p{N}]+|[.,;:!?()[\]{}|/\n+—]/gu;
const BOUNDARY_CHARS = new Set(['.', ',', ';', ':', '!', '?', '(', ')', '[', ']', '{', '}', '|', '/', '\n', '+', '—']);

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const source = stripAccents(text).replace(/&/g, ' and ');
  for (const match of source.matchAll(TOKEN)) {
    const raw = match[0];
    if (BOUNDARY_CHARS.has(raw)) {
      tokens.push({ text: raw, word: raw, stem: raw, upper: false, boundary: true });
      continue;
    }
    const word = raw.toLowerCase();
    tokens.push({ text: raw, word, stem: stem(word), upper: raw.length > 1 && raw === raw.toUpperCase() && raw !== word, boundary: false });
  }
  return tokens;
}

export function stems(text: string): string[] {
  return tokenize(text)
    .filter((t) => !t.boundary)
    .map((t) => t.stem);
}

/** Whether `phrase` (stems) occurs in `haystack` (stems) as whole consecutive words. */
export function containsPhrase(haystack: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.length === 0 || phrase.length > haystack.length) return false;
  outer: for (let i = 0; i + phrase.length <= haystack.length; i++) {
    for (let j = 0; j < phrase.length; j++) if (haystack[i + j] !== phrase[j]) continue outer;
    return true;
  }
  return false;
}

export interface PhraseHit<T> {
  start: number;
  /** Exclusive. */
  end: number;
  value: T;
}

interface PhraseEntry<T> {
  keys: string[];
  value: T;
  upperOnly: boolean;
}

/**
 * Longest-match-first dictionary of multi-word phrases over tokens. Longest first is what makes
 * "Computer and Network Security" one industry rather than "computer" plus "security", and
 * "Northern Ireland" the United Kingdom rather than Ireland.
 */
export class PhraseIndex<T> {
  private readonly byFirst = new Map<string, PhraseEntry<T>[]>();

  /** `key` chooses whether plurals fold together (`stem`) or not (`word`, for proper names). */
  constructor(private readonly key: 'stem' | 'word' = 'stem') {}

  /** `upperOnly`: in strict scans, only a phrase written in capitals counts (US, IT). */
  add(phrase: string, value: T, upperOnly = false): this {
    const keys = tokenize(phrase)
      .filter((t) => !t.boundary)
      .map((t) => t[this.key]);
    if (keys.length === 0) return this;
    const list = this.byFirst.get(keys[0]) ?? [];
    list.push({ keys, value, upperOnly });
    list.sort((a, b) => b.keys.length - a.keys.length);
    this.byFirst.set(keys[0], list);
    return this;
  }

  /** The entry for exactly this text, if any. */
  exact(text: string, strictCase = false): T | undefined {
    const tokens = tokenize(text).filter((t) => !t.boundary);
    const hits = this.scan(tokens, { strictCase });
    return hits.length === 1 && hits[0].start === 0 && hits[0].end === tokens.length ? hits[0].value : undefined;
  }

  /**
   * Non-overlapping hits, left to right. Tokens marked in `consumed` are skipped and hits are
   * marked there, so several dictionaries can share one pass over a text without reusing a word.
   */
  scan(tokens: readonly Token[], options: { consumed?: boolean[]; strictCase?: boolean; mark?: boolean } = {}): PhraseHit<T>[] {
    const { consumed, strictCase = false, mark = true } = options;
    const hits: PhraseHit<T>[] = [];
    let i = 0;
    while (i < tokens.length) {
      const hit = this.longestAt(tokens, i, { consumed, strictCase });
      if (!hit) {
        i++;
        continue;
      }
      hits.push(hit);
      if (consumed && mark) for (let k = hit.start; k < hit.end; k++) consumed[k] = true;
      i = hit.end;
    }
    return hits;
  }

  /** The longest entry that starts exactly at `at`. */
  longestAt(tokens: readonly Token[], at: number, options: { consumed?: boolean[]; strictCase?: boolean } = {}): PhraseHit<T> | null {
    const { consumed, strictCase = false } = options;
    const token = tokens[at];
    if (!token || token.boundary || consumed?.[at]) return null;
    const candidates = this.byFirst.get(token[this.key]);
    if (!candidates) return null;
    for (const entry of candidates) {
      if (this.matchesAt(tokens, at, entry, consumed, strictCase)) return { start: at, end: at + entry.keys.length, value: entry.value };
    }
    return null;
  }

  private matchesAt(
    tokens: readonly Token[],
    at: number,
    entry: PhraseEntry<T>,
    consumed: boolean[] | undefined,
    strictCase: boolean,
  ): boolean {
    if (at + entry.keys.length > tokens.length) return false;
    for (let k = 0; k < entry.keys.length; k++) {
      const token = tokens[at + k];
      if (token.boundary || consumed?.[at + k] || token[this.key] !== entry.keys[k]) return false;
      if (strictCase && entry.upperOnly && !token.upper) return false;
    }
    return true;
  }
}

/** "a", "a and b", "a, b and c" — with long lists cut so a reasoning stays readable. */
export function joinList(items: readonly string[], conjunction = 'and', max = 8): string {
  const shown = items.length > max ? [...items.slice(0, max), `${items.length - max} more`] : [...items];
  if (shown.length <= 1) return shown[0] ?? '';
  return `${shown.slice(0, -1).join(', ')} ${conjunction} ${shown[shown.length - 1]}`;
}

export function unique<T>(items: Iterable<T>): T[] {
  return [...new Set(items)];
}
