import { decodeXml } from './xml-guard.js';

/**
 * Bytes of an entry's head read to tell its type: a raster image's signature is in its first 12, an
 * SVG picture's root element after its prolog (XML declaration, comments, a DOCTYPE).
 */
export const IMAGE_HEAD_BYTES = 4096;

const startsWith = (head: Uint8Array, bytes: number[], at = 0): boolean =>
  bytes.every((b, i) => head[at + i] === b);

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** Raster signatures (the formats a cover may be stored as) and the media type each is. */
const SIGNATURES: [string, (head: Uint8Array) => boolean][] = [
  ['image/jpeg', (h) => startsWith(h, [0xff, 0xd8, 0xff])],
  ['image/png', (h) => startsWith(h, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  ['image/gif', (h) => startsWith(h, ascii('GIF87a')) || startsWith(h, ascii('GIF89a'))],
  ['image/webp', (h) => startsWith(h, ascii('RIFF')) && startsWith(h, ascii('WEBP'), 8)],
  ['image/avif', (h) => startsWith(h, ascii('ftypavif'), 4) || startsWith(h, ascii('ftypavis'), 4)],
  ['image/bmp', (h) => startsWith(h, ascii('BM'))],
];

/** What may come before an SVG document's root element: white space, declaration, PIs, comments, a DOCTYPE. */
const PROLOG = /^(?:\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*>)*/;
const SVG_ROOT = /^<(?:[A-Za-z_][\w.-]*:)?svg[\s/>]/;

/**
 * The media type an entry's first bytes show it to be (JPEG, PNG, GIF, WebP, AVIF, BMP, or SVG by its root
 * element), or null for anything else: whatever a manifest says of it, a package document, a page or
 * a script is no picture.
 */
export function sniffImageType(head: Uint8Array): string | null {
  for (const [type, matches] of SIGNATURES) if (matches(head)) return type;
  const text = decodeXml(head);
  return SVG_ROOT.test(text.slice(PROLOG.exec(text)?.[0].length ?? 0)) ? 'image/svg+xml' : null;
}
