import { EpubError } from './errors.js';

/** Decodes an XML file's bytes honouring a BOM or an encoding declaration; UTF-8 otherwise. */
export function decodeXml(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return decodeAs('utf-8', bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return decodeAs('utf-16le', bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decodeAs('utf-16be', bytes.subarray(2));
  // UTF-16 without a byte order mark shows in its first character, `<` (XML 1.0 appendix F)
  if (bytes[0] === 0x3c && bytes[1] === 0x00) return decodeAs('utf-16le', bytes);
  if (bytes[0] === 0x00 && bytes[1] === 0x3c) return decodeAs('utf-16be', bytes);
  const head = Buffer.from(bytes.subarray(0, 200)).toString('latin1');
  const declared = /^<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
  // a declaration readable one byte per character is not UTF-16, whatever it says: decoding such a
  // file as UTF-16 turned its text into noise that hid an entity declaration from the guard below
  // (found by an audit); an XML parser detects the encoding from those first bytes as well
  if (declared && isUtf16(declared)) return decodeAs('utf-8', bytes);
  return decodeAs(declared ?? 'utf-8', bytes);
}

function isUtf16(label: string): boolean {
  try {
    return new TextDecoder(label).encoding.startsWith('utf-16');
  } catch {
    return false;
  }
}

function decodeAs(label: string, bytes: Uint8Array): string {
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/**
 * Refuses internal DTD subsets and entity declarations (XXE, billion laughs) before any parser sees
 * the text, and returns the text with a plain external DOCTYPE removed.
 *
 * A DOCTYPE that only names an external DTD (`<!DOCTYPE ncx PUBLIC "..." "...">`) is in nearly every
 * EPUB 2 NCX and XHTML file; refusing it would refuse most real books. It is harmless here because
 * nothing in this package ever fetches external identifiers, so it is stripped rather than refused.
 */
export function stripSafeDoctype(xml: string, where: string): string {
  const end = doctypeEnd(xml, where);
  return end === null ? xml : xml.slice(0, end.start) + xml.slice(end.end);
}

/** The checks of `stripSafeDoctype` without building the stripped copy (verification of big files). */
export function assertSafeDoctype(xml: string, where: string): void {
  doctypeEnd(xml, where);
}

/**
 * Refuses as stripSafeDoctype does; the span of a plain external DOCTYPE, or null without one. One
 * pass over the `<!` markup, skipping comments and CDATA sections (a tutorial quoting a DOCTYPE in a
 * CDATA section was refused), stopping at the second DOCTYPE (collecting every match of a file that
 * repeats `<!DOCTYPE` 14 million times took 2.8 GB; both found by an audit).
 */
function doctypeEnd(xml: string, where: string): { start: number; end: number } | null {
  let found: { start: number; end: number } | null = null;
  let at = xml.indexOf('<!');
  while (at !== -1) {
    const skip = xml.startsWith('<!--', at) ? '-->' : xml.startsWith('<![CDATA[', at) ? ']]>' : '';
    if (skip) {
      const close = xml.indexOf(skip, at + 4);
      if (close === -1) break; // unterminated: the parser refuses the document as broken
      at = xml.indexOf('<!', close + skip.length);
      continue;
    }
    const word = xml.slice(at + 2, at + 9).toUpperCase();
    if (word.startsWith('ENTITY')) throw dtdError(where, 'an entity declaration');
    if (word === 'DOCTYPE') {
      if (found) throw dtdError(where, 'more than one DOCTYPE');
      found = doctypeSpan(xml, at, where);
      at = xml.indexOf('<!', found.end);
      continue;
    }
    at = xml.indexOf('<!', at + 2);
  }
  return found;
}

function doctypeSpan(xml: string, start: number, where: string): { start: number; end: number } {
  let quote = '';
  for (let i = start + 9; i < xml.length; i++) {
    const ch = xml[i]!;
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '[') {
      throw dtdError(where, 'an internal DTD subset');
    } else if (ch === '>') {
      return { start, end: i + 1 };
    } else if (ch === '<') {
      break;
    }
  }
  throw new EpubError('BROKEN_XML', `${where}: unterminated DOCTYPE declaration`);
}

function dtdError(where: string, what: string): EpubError {
  return new EpubError(
    'XML_DTD',
    `${where} contains ${what}; DTDs and entities are refused (XXE / entity expansion)`,
  );
}

const XML_EXTENSIONS = /\.(xml|xhtml|xht|html|htm|opf|ncx|svg|smil|xsl)$/i;

export function looksLikeXml(entryName: string): boolean {
  return XML_EXTENSIONS.test(entryName);
}

/** Text of the five predefined entities and character references; other `&name;` stay as written. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos);/gi, (whole, ref: string) => {
    const lower = ref.toLowerCase();
    if (lower.startsWith('#')) {
      const code = lower.startsWith('#x')
        ? Number.parseInt(lower.slice(2), 16)
        : Number.parseInt(lower.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : whole;
    }
    return PREDEFINED[lower] ?? whole;
  });
}

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
