import { setImmediate as nextTurn } from 'node:timers/promises';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { EpubError } from './errors.js';
import type { SafeZip } from './safe-unzip.js';
import { decodeEntities, decodeXml, stripSafeDoctype } from './xml-guard.js';

/** A minimal ordered DOM: enough for container, OPF, NCX and XHTML navigation documents. */
export interface XNode {
  name: string;
  attrs: Record<string, string>;
  children: (XNode | string)[];
}

/**
 * Deepest nesting of elements parsed; deeper is broken XML here. fast-xml-parser's default (100) made
 * a table of contents of ~50 levels (two elements a level in a navigation document) no table at all,
 * silently replaced by the spine; MAX_TOC_DEPTH keeps such tables, flattened. Our tree walks recurse
 * once per level, which this keeps far from the stack's limit.
 */
export const MAX_XML_NESTING = 1000;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  stopNodes: ['*.script', '*.style'],
  maxNestedTags: MAX_XML_NESTING,
  // CDATA apart from text: its `&amp;` is four characters, not an entity to decode
  cdataPropName: '#cdata',
});

/**
 * Largest XML document parsed (package, container, navigation, NCX, cover page). Parsing is synchronous
 * at ~0.2 s per MiB here, and entries may unpack to 128 MiB: a hostile navigation document held the
 * admin service for seconds. Real ones stay far below (an NCX of 10,000 entries is ~1-2 MiB).
 */
export const MAX_XML_DOCUMENT_BYTES = 4 * 1024 * 1024;

/**
 * Most markup characters (`<`, `&`, `=`: tags, references, attributes) in one XML document parsed.
 * Parsing time follows them rather than the bytes (empty elements or attributes take several times as
 * long as text of the same size), and parsing holds the event loop. A table of contents of 10,000
 * entries (MAX_TOC_ENTRIES) is ~100,000 of them, a package document naming 10,000 files (the most
 * entries an archive may have) ~60,000.
 */
export const MAX_XML_MARKUP = 150_000;

/**
 * Parses XML bytes. `strict` runs the well-formedness validator first (container and OPF, whose
 * breakage must be reported); lenient parsing serves navigation and content documents.
 */
export function parseXml(bytes: Uint8Array, where: string, strict = true): XNode {
  if (bytes.length > MAX_XML_DOCUMENT_BYTES) throw tooLargeXml(where, bytes.length);
  const decoded = decodeXml(bytes);
  assertMarkupCount(decoded, where);
  const text = stripSafeDoctype(decoded, where);
  if (strict) {
    const result = XMLValidator.validate(text);
    if (result !== true) {
      throw new EpubError('BROKEN_XML', `${where} is not well-formed XML: ${validatorMessage(result.err)}`);
    }
  }
  let raw: unknown;
  try {
    raw = parser.parse(text);
  } catch (err) {
    throw new EpubError('BROKEN_XML', `${where} could not be parsed: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const root: XNode = { name: '#document', attrs: {}, children: convert(raw) };
  if (!root.children.some((c) => typeof c !== 'string'))
    throw new EpubError('BROKEN_XML', `${where} has no root element`);
  return root;
}

/**
 * The validator's message as an operator reads it: several tags left open come as a JSON list "found"
 * at line 1 (`Invalid '[    "package",    "metadata"]' found.`), where the line says nothing.
 */
function validatorMessage(err: { msg: string; line: number }): string {
  const open = /^Invalid '(\[.*\])' found\.$/.exec(err.msg)?.[1];
  const names = open === undefined ? undefined : (JSON.parse(open) as unknown);
  if (Array.isArray(names) && names.every((n) => typeof n === 'string'))
    return `tags never closed: ${names.map((n) => `<${n}>`).join(', ')}`;
  return `${err.msg} (line ${err.line})`;
}

/**
 * Reads and parses one entry of the book, within the book's budget of parsed XML (`maxXmlBytes`).
 * Each document is parsed in a turn of the event loop of its own: parsing is synchronous, so the
 * service answers other requests between the documents of one book, waiting at most for one of them.
 */
export async function readXml(zip: SafeZip, name: string, strict = true): Promise<XNode> {
  // an oversized document is refused from its checked declared size, before it is inflated
  const size = zip.sizeOf(name);
  if (size > MAX_XML_DOCUMENT_BYTES) throw tooLargeXml(name, size);
  zip.spendOnXml(size, name);
  await nextTurn();
  return parseXml(zip.read(name), name, strict);
}

const LT = 0x3c;
const AMP = 0x26;
const EQUALS = 0x3d;

/** Refuses a document with more than MAX_XML_MARKUP markup characters, before any parser sees it. */
function assertMarkupCount(text: string, where: string): void {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LT || c === AMP || c === EQUALS) count += 1;
  }
  if (count > MAX_XML_MARKUP) {
    throw new EpubError(
      'TOO_LARGE',
      `${where} has ${count} markup characters (<, & and =), over the ${MAX_XML_MARKUP} read of an XML document`,
    );
  }
}

function tooLargeXml(where: string, size: number): EpubError {
  return new EpubError(
    'TOO_LARGE',
    `${where} is ${size} bytes, over the ${MAX_XML_DOCUMENT_BYTES} bytes read of an XML document`,
  );
}

function convert(raw: unknown): (XNode | string)[] {
  if (!Array.isArray(raw)) return [];
  const out: (XNode | string)[] = [];
  for (const item of raw as Record<string, unknown>[]) {
    if (item === null || typeof item !== 'object') continue;
    for (const [key, value] of Object.entries(item)) {
      if (key === ':@') continue;
      if (key === '#text') {
        out.push(decodeEntities(String(value)));
      } else if (key === '#cdata') {
        out.push(cdataText(value));
      } else {
        const attrs: Record<string, string> = {};
        const rawAttrs = item[':@'];
        if (rawAttrs && typeof rawAttrs === 'object') {
          for (const [k, v] of Object.entries(rawAttrs)) attrs[k] = decodeEntities(String(v));
        }
        out.push({ name: key, attrs, children: convert(value) });
      }
    }
  }
  return out;
}

/** A CDATA section's text exactly as written (fast-xml-parser nests it as `[{ '#text': ... }]`). */
function cdataText(value: unknown): string {
  if (!Array.isArray(value)) return '';
  return value.map((part) => String((part as Record<string, unknown>)?.['#text'] ?? '')).join('');
}

export function elements(node: XNode, name?: string): XNode[] {
  return node.children.filter((c): c is XNode => typeof c !== 'string' && (!name || c.name === name));
}

export function firstChild(node: XNode, name: string): XNode | undefined {
  return elements(node, name)[0];
}

/** Depth-first, document-order search. */
export function descendants(node: XNode, name: string, out: XNode[] = []): XNode[] {
  for (const child of elements(node)) {
    if (child.name === name) out.push(child);
    descendants(child, name, out);
  }
  return out;
}

export function textOf(node: XNode): string {
  const parts: string[] = [];
  const walk = (n: XNode): void => {
    for (const c of n.children) typeof c === 'string' ? parts.push(c) : walk(c);
  };
  walk(node);
  return parts.join('').replace(/\s+/g, ' ').trim();
}
