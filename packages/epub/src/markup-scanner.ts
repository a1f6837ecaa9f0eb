import { EpubError } from './errors.js';

// Lexical states. Only comments, CDATA sections and processing instructions are skipped: their content
// is text to every parser. Tags and DOCTYPEs are read, and markup no two parsers would read alike there
// is refused, so the guard never skips what a parser reads (a DOCTYPE hidden behind `<?x <!-- ?>`).
const TEXT = 0;
const TAG = 1;
const END_TAG = 2;
const COMMENT = 3;
const CDATA = 4;
const PI = 5;
const DOCTYPE = 6;

const UNTERMINATED = [
  '',
  '',
  '',
  'comment',
  'CDATA section',
  'processing instruction',
  'DOCTYPE declaration',
];

const LT = 0x3c;
const GT = 0x3e;
const BANG = 0x21;
const QUESTION = 0x3f;
const SLASH = 0x2f;
const DQUOTE = 0x22;
const SQUOTE = 0x27;
const LBRACKET = 0x5b;

/** Longest opener read whole (`<!NOTATION`): a chunk ending closer than this to a `<` is carried over. */
const OPENER = 10;
// `/i` without `/u` never folds a non-ASCII letter to ASCII (`<!entıty` is not `<!ENTITY`)
const DECLARATION = /ENTITY|ELEMENT|ATTLIST|NOTATION/iy;
const DOCTYPE_WORD = /DOCTYPE/iy;

export interface Span {
  start: number;
  end: number;
}

/**
 * Finds DTD constructs in markup fed in chunks of any size, carrying its state (and at most a few
 * characters) from one chunk to the next: verification reads entries of up to 128 MiB this way in
 * bounded memory, and parsing runs it over a whole document. Refuses an entity, element, attribute-list
 * or notation declaration, a conditional section, an internal DTD subset and a second DOCTYPE anywhere
 * outside comments, CDATA sections and processing instructions; `doctype` is the span of the one plain
 * external DOCTYPE, if any (offsets in the text fed).
 *
 * Tags are read as fast-xml-parser reads them (any quote opens a value; an end tag ends at its first
 * `>`); XML parsers agree on well-formed documents and stop at the others. So `<!` or `<?` inside a tag
 * (a comment opener in an attribute value: no parser agrees what it is) is refused; so are `<`, `>` and
 * `[` in a DOCTYPE's quoted literal (no real identifier holds them), and a PI whose first `?>` lies in
 * quotes (XML ends it there, fast-xml-parser does not). A PI's content is never markup (XML 1.0 §2.6),
 * so an `<!ENTITY` inside one is now text where the first version, which knew no PIs, refused it.
 */
export class MarkupScanner {
  doctype: Span | null = null;
  private state = TEXT;
  /** The quote open in a tag, PI or DOCTYPE (its char code), else 0. */
  private quote = 0;
  private carry = '';
  /** Characters fed before `carry`. */
  private offset = 0;
  private doctypeStart = 0;
  private final = false;
  private stalled = false;

  /**
   * `strictEnd`: markup ending inside a comment, CDATA section, PI or DOCTYPE is refused as broken
   * (no parser reads what that hides, but the guard has skipped it unread). The one-byte view of a file
   * in another encoding passes false: its bytes are not its text there, only DTD constructs count.
   */
  constructor(
    private readonly where: string,
    private readonly strictEnd = true,
  ) {}

  feed(chunk: string): void {
    this.scan(this.carry ? this.carry + chunk : chunk, false);
  }

  end(): void {
    this.scan(this.carry, true);
    const open = UNTERMINATED[this.state];
    if (open && this.strictEnd) throw new EpubError('BROKEN_XML', `${this.where}: unterminated ${open}`);
  }

  private scan(text: string, final: boolean): void {
    this.final = final;
    this.stalled = false;
    let i = 0;
    while (i < text.length && !this.stalled) i = this.step(text, i);
    this.carry = text.slice(i);
    this.offset += i;
  }

  /** Waits for the next chunk before reading on from `at`. */
  private stall(at: number): number {
    this.stalled = true;
    return at;
  }

  private step(text: string, i: number): number {
    switch (this.state) {
      case TEXT: {
        const lt = text.indexOf('<', i);
        if (lt === -1) return text.length;
        if (text.length - lt < OPENER && !this.final) return this.stall(lt);
        return this.opener(text, lt);
      }
      case COMMENT:
        return this.skipTo(text, i, '-->');
      case CDATA:
        return this.skipTo(text, i, ']]>');
      case PI:
        return this.pi(text, i);
      case DOCTYPE:
        return this.doctypeBody(text, i);
      default:
        return this.tag(text, i);
    }
  }

  private opener(text: string, at: number): number {
    const next = text.charCodeAt(at + 1);
    if (next === QUESTION) return this.enter(PI, at + 2);
    if (next === SLASH) return this.enter(END_TAG, at + 2);
    if (next !== BANG) return this.enter(TAG, at + 1);
    if (text.startsWith('--', at + 2)) return this.enter(COMMENT, at + 4);
    if (text.startsWith('[CDATA[', at + 2)) return this.enter(CDATA, at + 9);
    if (text.charCodeAt(at + 2) === LBRACKET) throw this.dtd('a conditional section');
    DECLARATION.lastIndex = at + 2;
    if (DECLARATION.test(text)) throw this.dtd('a markup declaration (an entity declaration or other DTD)');
    DOCTYPE_WORD.lastIndex = at + 2;
    if (DOCTYPE_WORD.test(text)) {
      if (this.doctype) throw this.dtd('more than one DOCTYPE');
      this.doctypeStart = this.offset + at;
      return this.enter(DOCTYPE, at + 9);
    }
    // `<!x`: a tag to fast-xml-parser, an error to XML parsers; never a place to skip from
    return this.enter(TAG, at + 2);
  }

  private enter(state: number, at: number): number {
    this.state = state;
    this.quote = 0;
    return at;
  }

  private skipTo(text: string, i: number, terminator: string): number {
    const end = text.indexOf(terminator, i);
    if (end !== -1) return this.enter(TEXT, end + terminator.length);
    // a terminator split between chunks starts in the last characters of this one
    return this.final ? text.length : this.stall(Math.max(i, text.length - terminator.length + 1));
  }

  private tag(text: string, i: number): number {
    const quotes = this.state === TAG;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === LT) {
        if (i + 1 === text.length && !this.final) return this.stall(i);
        const next = text.charCodeAt(i + 1);
        if (next === BANG || next === QUESTION) throw this.dtd('markup inside a tag');
      } else if (this.quote !== 0) {
        if (c === this.quote) this.quote = 0;
      } else if (c === GT) {
        return this.enter(TEXT, i + 1);
      } else if (quotes && (c === DQUOTE || c === SQUOTE)) {
        this.quote = c;
      }
    }
    return i;
  }

  private pi(text: string, i: number): number {
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === QUESTION) {
        if (i + 1 === text.length && !this.final) return this.stall(i);
        if (text.charCodeAt(i + 1) !== GT) continue;
        if (this.quote !== 0) throw this.dtd('a processing instruction whose end lies inside quotes');
        return this.enter(TEXT, i + 2);
      }
      if (this.quote !== 0) {
        if (c === this.quote) this.quote = 0;
      } else if (c === DQUOTE || c === SQUOTE) {
        this.quote = c;
      }
    }
    return i;
  }

  private doctypeBody(text: string, i: number): number {
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.quote !== 0) {
        if (c === this.quote) this.quote = 0;
        else if (c === LT || c === GT || c === LBRACKET) throw this.dtd("markup inside a DOCTYPE's literal");
      } else if (c === DQUOTE || c === SQUOTE) {
        this.quote = c;
      } else if (c === LBRACKET) {
        throw this.dtd('an internal DTD subset');
      } else if (c === GT) {
        this.doctype = { start: this.doctypeStart, end: this.offset + i + 1 };
        return this.enter(TEXT, i + 1);
      } else if (c === LT) {
        throw new EpubError('BROKEN_XML', `${this.where}: unterminated DOCTYPE declaration`);
      }
    }
    return i;
  }

  private dtd(what: string): EpubError {
    return new EpubError(
      'XML_DTD',
      `${this.where} contains ${what}; DTDs and entities are refused (XXE / entity expansion)`,
    );
  }
}
