import { EpubError } from './errors.js';

/** Decodes an XML file's bytes honouring a BOM or an encoding declaration; UTF-8 otherwise. */
export function decodeXml(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return decodeAs('utf-8', bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return decodeAs('utf-16le', bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decodeAs('utf-16be', bytes.subarray(2));
  const head = Buffer.from(bytes.subarray(0, 200)).toString('latin1');
  const declared = /^<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
  return decodeAs(declared ?? 'utf-8', bytes);
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

/** Refuses as stripSafeDoctype does; the span of a plain external DOCTYPE, or null without one. */
function doctypeEnd(xml: string, where: string): { start: number; end: number } | null {
  if (/<!ENTITY/i.test(xml)) throw dtdError(where, 'an entity declaration');
  const matches = [...xml.matchAll(/<!DOCTYPE/gi)];
  if (matches.length === 0) return null;
  if (matches.length > 1) throw dtdError(where, 'more than one DOCTYPE');
  const start = matches[0]!.index;
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
