import { stat } from 'node:fs/promises';
import { verifyArchive } from './archive.verifier.js';
import { readRootFile } from './container.parser.js';
import { resolveCover } from './cover.resolver.js';
import { EpubError } from './errors.js';
import { assertArchiveSize, type EpubLimits, resolveLimits } from './limits.js';
import { readNavToc } from './nav.parser.js';
import { readNcxToc } from './ncx.parser.js';
import { type OpfPackage, readOpf } from './opf.parser.js';
import { SafeZip } from './safe-unzip.js';
import { spineToc } from './spine-toc.js';
import { buildToc, capDepth, countItems, MAX_TOC_DEPTH, type RawTocItem } from './toc.builder.js';
import type { ParsedEpub, TocSource } from './types.js';

/**
 * Parses an EPUB (buffer or file path) after checking the whole archive against `limits`.
 * Every refusal is an `EpubError`; a file that cannot be read from disk rejects with the fs error.
 */
export async function parseEpub(
  input: Buffer | Uint8Array | string,
  limits?: Partial<EpubLimits>,
): Promise<ParsedEpub> {
  const resolved = resolveLimits(limits);
  const source = await loadInput(input, resolved);
  const { zip, parsed } = await openAndParse(source, resolved);
  zip.close();
  return parsed;
}

/**
 * The single gate for parsing and storing: archive checks, full verification, then the book itself.
 * `input` is the archive's bytes or its path (read one entry at a time). The caller closes `zip`.
 */
export async function openAndParse(
  input: Buffer | string,
  limits: EpubLimits,
): Promise<{ zip: SafeZip; parsed: ParsedEpub }> {
  let zip: SafeZip | undefined;
  try {
    zip = new SafeZip(input, limits);
    await verifyArchive(zip);
    return { zip, parsed: await parseZip(zip) };
  } catch (err) {
    zip?.close();
    // the file system failing us (a temp file removed, EMFILE) is the service's fault, not the book's:
    // never a 415 "not an EPUB" naming a server path
    if (err instanceof EpubError || (err as NodeJS.ErrnoException).syscall) throw err;
    throw new EpubError('UNREADABLE', `the EPUB could not be read: ${(err as Error)?.message}`, {
      cause: err,
    });
  }
}

/** A path stays a path (the archive is read from disk entry by entry); missing files reject here. */
async function loadInput(input: Buffer | Uint8Array | string, limits: EpubLimits): Promise<Buffer | string> {
  if (typeof input !== 'string') return Buffer.isBuffer(input) ? input : Buffer.from(input);
  assertArchiveSize((await stat(input)).size, limits);
  return input;
}

async function parseZip(zip: SafeZip): Promise<ParsedEpub> {
  const rootFile = await readRootFile(zip);
  const opf = await readOpf(zip, rootFile);
  const { items, source } = await readToc(zip, opf);
  const { contents, contentsTree } = buildToc(items);
  return {
    metadata: opf.metadata,
    rootFile,
    version: opf.version,
    cover: await resolveCover(zip, opf),
    contents,
    contentsTree,
    tocSource: source,
  };
}

/** nav (EPUB 3) before NCX (EPUB 2) before the spine; a broken or empty TOC falls through. */
async function readToc(zip: SafeZip, opf: OpfPackage): Promise<{ items: RawTocItem[]; source: TocSource }> {
  const readers: [TocSource, () => Promise<RawTocItem[] | null> | RawTocItem[]][] = [
    ['nav', () => readNavToc(zip, opf)],
    ['ncx', () => readNcxToc(zip, opf)],
    ['spine', () => spineToc(zip, opf)],
  ];
  for (const [source, read] of readers) {
    let items: RawTocItem[] | null;
    try {
      items = await read();
    } catch (err) {
      // a broken or oversized navigation document: the next source serves
      if (err instanceof EpubError && (err.code === 'BROKEN_XML' || err.code === 'TOO_LARGE')) continue;
      throw err;
    }
    if (items && countItems(items) > 0)
      return {
        items: canonicalPaths(zip, firstItems(capDepth(items, MAX_TOC_DEPTH), MAX_TOC_ENTRIES)),
        source,
      };
  }
  return { items: [], source: 'spine' };
}

/**
 * Entries of a table of contents kept, in document order; the rest are left out. Every entry is a row
 * stored with the book and sent with its contents: a hostile book could otherwise have ~40,000 within
 * MAX_XML_DOCUMENT_BYTES. Real books stay below (a 1,189-chapter Bible, a dictionary's letters).
 */
export const MAX_TOC_ENTRIES = 10_000;

/** The first `max` items in document order (a parent before its children), as a tree again. */
function firstItems(items: RawTocItem[], max: number): RawTocItem[] {
  let left = max;
  const take = (list: RawTocItem[]): RawTocItem[] => {
    const kept: RawTocItem[] = [];
    for (const item of list) {
      if (left === 0) break;
      left -= 1;
      kept.push({ ...item, children: take(item.children) });
    }
    return kept;
  };
  return take(items);
}

/** Uses the archive's own spelling of each path, so `text` names a file that really exists. */
function canonicalPaths(zip: SafeZip, items: RawTocItem[]): RawTocItem[] {
  return items.map((item) => ({
    ...item,
    path: item.path ? (zip.resolveName(item.path) ?? item.path) : '',
    children: canonicalPaths(zip, item.children),
  }));
}
