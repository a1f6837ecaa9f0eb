import { isShortKeyword, normalizeText } from './grams.js';

const SEPARATOR = '\u0000';

interface Joined {
  text: string;
  /** where each text starts in `text` */
  starts: number[];
}

function join(texts: readonly string[]): Joined {
  const starts: number[] = [];
  let at = 0;
  for (const t of texts) {
    starts.push(at);
    at += t.length + SEPARATOR.length;
  }
  return { text: texts.join(SEPARATOR), starts };
}

/**
 * Texts searched in memory for a keyword by the rule of the database's substring indexes, so that an
 * answer from memory is the index's answer: a keyword of one or two characters compares NFKC lower-case
 * forms (the gram index), a longer one lower-case forms (the trigram indexes fold case only). Each form
 * of all texts is one string that indexOf walks: ~85 ns per text with a test per text, far less this way.
 */
export class TextMatcher {
  private readonly short: Joined;
  private readonly long: Joined;

  constructor(texts: readonly string[]) {
    this.short = join(texts.map(normalizeText));
    this.long = join(texts.map((t) => t.toLowerCase()));
  }

  /** Positions of the texts containing the keyword, ascending, at most `limit`. */
  matches(keyword: string, limit: number): number[] {
    const rule = this.rule(keyword);
    if (!rule) return [];
    const { joined, kw } = rule;
    const out: number[] = [];
    let from = 0;
    while (out.length < limit) {
      const at = joined.text.indexOf(kw, from);
      if (at < 0) break;
      const i = lastAtOrBefore(joined.starts, at);
      out.push(i);
      from = joined.starts[i + 1] ?? joined.text.length;
    }
    return out;
  }

  private rule(keyword: string): { joined: Joined; kw: string } | undefined {
    if (keyword.includes(SEPARATOR)) return undefined;
    if (isShortKeyword(keyword)) {
      const kw = normalizeText(keyword);
      // the gram index holds no gram with white space in it
      return /\s/u.test(kw) ? undefined : { joined: this.short, kw };
    }
    const kw = keyword.toLowerCase();
    // the trigram index matches nothing shorter than three characters as typed (a ligature, say)
    return Array.from(kw).length < 3 ? undefined : { joined: this.long, kw };
  }
}

/** Index of the last start ≤ at (starts ascending, starts[0] = 0). */
function lastAtOrBefore(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
