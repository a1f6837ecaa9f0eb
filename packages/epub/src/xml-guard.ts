import { MarkupScanner } from './markup-scanner.js';

/** How an XML file's bytes are decoded: `label` for TextDecoder, after a byte order mark of `bom` bytes. */
export interface XmlEncoding {
  label: string;
  bom: number;
}

/** Bytes of a file's head read for its encoding declaration (it comes first). */
const DECLARATION_BYTES = 200;

/** Tab, line feed, carriage return, space: what may come before markup. */
export const isXmlSpace = (byte: number | undefined): boolean =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/**
 * The encoding of an XML file from its first bytes: a BOM, else UTF-16 shown by its first character
 * (`<` or white space with a zero byte: XML 1.0 appendix F), else an encoding declaration, else UTF-8.
 * Parsing (`decodeXml`) and verification (which sees only the head first) decide alike from this.
 */
export function detectEncoding(head: Uint8Array): XmlEncoding {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { label: 'utf-8', bom: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { label: 'utf-16le', bom: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { label: 'utf-16be', bom: 2 };
  const opens = (byte: number | undefined) => byte === 0x3c || isXmlSpace(byte);
  if (opens(head[0]) && head[1] === 0x00) return { label: 'utf-16le', bom: 0 };
  if (head[0] === 0x00 && opens(head[1])) return { label: 'utf-16be', bom: 0 };
  const text = Buffer.from(head.subarray(0, DECLARATION_BYTES)).toString('latin1');
  const declared = /^<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(text)?.[1];
  // a declaration readable one byte per character is not UTF-16, whatever it says: decoding such a
  // file as UTF-16 turns its text into noise that hides an entity declaration from the guard; an XML parser detects the encoding from those first bytes as well
  const encoding = declared ? encodingOf(declared) : undefined;
  if (!encoding || encoding.startsWith('utf-16')) return { label: 'utf-8', bom: 0 };
  return { label: encoding, bom: 0 };
}

/** TextDecoder's name for a label, or undefined when it knows none (such files are read as UTF-8). */
function encodingOf(label: string): string | undefined {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

/** Decodes an XML file's bytes honouring a BOM or an encoding declaration; UTF-8 otherwise. */
export function decodeXml(bytes: Uint8Array): string {
  const { label, bom } = detectEncoding(bytes);
  return new TextDecoder(label).decode(bytes.subarray(bom));
}

/**
 * Refuses internal DTD subsets and entity declarations (XXE, billion laughs) before any parser sees
 * the text, and returns the text with a plain external DOCTYPE removed. The same scanner checks every
 * entry during verification (`markup-guard.ts`), so both read markup by the same rules.
 *
 * A DOCTYPE that only names an external DTD (`<!DOCTYPE ncx PUBLIC "..." "...">`) is in nearly every
 * EPUB 2 NCX and XHTML file; refusing it would refuse most real books. It is harmless here because
 * nothing in this package ever fetches external identifiers, so it is stripped rather than refused.
 */
export function stripSafeDoctype(xml: string, where: string): string {
  const scanner = new MarkupScanner(where);
  scanner.feed(xml);
  scanner.end();
  const span = scanner.doctype;
  return span === null ? xml : xml.slice(0, span.start) + xml.slice(span.end);
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
