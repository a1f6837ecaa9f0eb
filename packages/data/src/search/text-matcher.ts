import { isShortKeyword, normalizeText } from './grams.js';
import { trigramForms } from './match.js';

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
 * forms (the gram index), a longer one as typed or NFKC, lower-case forms (the trigram indexes fold case
 * only; see trigramForms). Each form
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
    const { joined, kws } = rule;
    if (kws.length === 1) return scan(joined, kws[0]!, limit);
    // any of the forms: the first `limit` of each hold the first `limit` of all
    const all = new Set(kws.flatMap((kw) => scan(joined, kw, limit)));
    return [...all].sort((x, y) => x - y).slice(0, limit);
  }

  private rule(keyword: string): { joined: Joined; kws: string[] } | undefined {
    if (keyword.includes(SEPARATOR)) return undefined;
    if (isShortKeyword(keyword)) {
      const kw = normalizeText(keyword);
      // the gram index holds no gram with white space in it
      return /\s/u.test(kw) ? undefined : { joined: this.short, kws: [kw] };
    }
    // the trigram index matches nothing shorter than three characters as typed (a ligature, say)
    const kws = [...new Set(trigramForms(keyword).map((f) => f.toLowerCase()))].filter(
      (kw) => Array.from(kw).length >= 3,
    );
    return kws.length === 0 ? undefined : { joined: this.long, kws };
  }
}

/** Positions of the texts of `joined` containing `kw`, ascending, at most `limit`. */
function scan(joined: Joined, kw: string, limit: number): number[] {
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
