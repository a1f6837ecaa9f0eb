import { randomBytes } from 'node:crypto';
import type { EpubErrorCode } from '../errors.js';
import { MAX_XML_MARKUP } from '../xml.js';
import { containerXml, makeEpub } from './make-epub.js';
import { type RawZipEntry, writeZip } from './zip-writer.js';

/** Each hostile archive and the error code `parseEpub` / `FileStore.putBook` must refuse it with. */
export const HOSTILE_KINDS = {
  traversal: 'UNSAFE_PATH',
  'absolute-path': 'UNSAFE_PATH',
  'windows-path': 'UNSAFE_PATH',
  'file-and-folder': 'UNSAFE_PATH',
  'folder-and-file': 'UNSAFE_PATH',
  symlink: 'SYMLINK',
  'zip-bomb': 'COMPRESSION_RATIO',
  'lying-size': 'ENTRY_TOO_LARGE',
  'too-many-entries': 'TOO_MANY_ENTRIES',
  'xxe-container': 'XML_DTD',
  'xxe-opf': 'XML_DTD',
  'billion-laughs': 'XML_DTD',
  'dtd-in-chapter': 'XML_DTD',
  encrypted: 'ENCRYPTED',
  truncated: 'CORRUPT_ZIP',
  'not-a-zip': 'NOT_A_ZIP',
  'missing-container': 'MISSING_CONTAINER',
  'missing-opf': 'MISSING_OPF',
  'broken-opf': 'BROKEN_XML',
  'markup-heavy-opf': 'TOO_LARGE',
} as const satisfies Record<string, EpubErrorCode>;

export type HostileKind = keyof typeof HOSTILE_KINDS;

const OPF = (metadataExtra = '', prolog = ''): string => `<?xml version="1.0" encoding="UTF-8"?>${prolog}
<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:title>Hostile ${metadataExtra}</dc:title></metadata><manifest/><spine/></package>`;

/** An EPUB of this package document (`OEBPS/content.opf`, taken as it is) and `extra` entries. */
export const epubWithPackage = (
  opf: string,
  extra: RawZipEntry[] = [],
  container = containerXml('OEBPS/content.opf'),
): Buffer =>
  writeZip([
    { name: 'mimetype', data: 'application/epub+zip', method: 0 },
    { name: 'META-INF/container.xml', data: container },
    { name: 'OEBPS/content.opf', data: opf },
    ...extra,
  ]);

const LAUGHS = `<!DOCTYPE package [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]>`;

/** Archives that must be refused; used by this package's tests and by upload tests elsewhere. */
export function makeHostileZip(kind: HostileKind): Buffer {
  switch (kind) {
    case 'traversal':
      return makeEpub({ extraEntries: [{ name: 'OEBPS/../../evil.txt', data: 'pwned' }] });
    case 'absolute-path':
      return makeEpub({ extraEntries: [{ name: '/tmp/evil.txt', data: 'pwned' }] });
    case 'windows-path':
      return makeEpub({ extraEntries: [{ name: 'C:\\Windows\\evil.txt', data: 'pwned' }] });
    // one name both a file and a folder: unpacking must not fail on the second (EEXIST) with a 500
    case 'file-and-folder':
      return makeEpub({
        extraEntries: [
          { name: 'OEBPS/x', data: 'a file' },
          { name: 'OEBPS/x/y.txt', data: 'inside it' },
        ],
      });
    case 'folder-and-file':
      return makeEpub({
        extraEntries: [
          { name: 'OEBPS/x/', data: '' },
          { name: 'OEBPS/x', data: 'a file' },
        ],
      });
    case 'symlink':
      return makeEpub({
        extraEntries: [{ name: 'OEBPS/passwd', data: '/etc/passwd', externalAttr: (0o120777 << 16) >>> 0 }],
      });
    case 'zip-bomb':
      // 64 MiB of zeros deflates to ~64 KiB: about 1000:1.
      return makeEpub({ extraEntries: [{ name: 'OEBPS/bomb.txt', data: Buffer.alloc(64 * 1024 * 1024) }] });
    case 'lying-size':
      // Declares 1 KiB, inflates to 8 MiB: only counting the bytes really inflated catches it.
      return makeEpub({
        extraEntries: [{ name: 'OEBPS/liar.txt', data: Buffer.alloc(8 * 1024 * 1024), declaredSize: 1024 }],
      });
    case 'too-many-entries':
      return makeEpub({
        extraEntries: Array.from({ length: 10_001 }, (_, i) => ({
          name: `OEBPS/many/${i}.txt`,
          data: '',
          method: 0 as const,
        })),
      });
    case 'xxe-container':
      return epubWithPackage(
        OPF(),
        [],
        `<?xml version="1.0"?><!DOCTYPE container [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>&xxe;</container>`,
      );
    case 'xxe-opf':
      return epubWithPackage(OPF('&xxe;', '<!DOCTYPE package [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'));
    case 'billion-laughs':
      return epubWithPackage(OPF('&lol9;', LAUGHS));
    case 'dtd-in-chapter':
      return makeEpub({
        extraEntries: [
          { name: 'OEBPS/text/evil.xhtml', data: `<?xml version="1.0"?>${LAUGHS}<html>&lol9;</html>` },
        ],
      });
    case 'encrypted':
      return makeEpub({ extraEntries: [{ name: 'OEBPS/secret.txt', data: 'x', flags: 1 }] });
    case 'truncated': {
      const whole = makeEpub({ chapters: [{ title: 'One', body: `<p>${'text '.repeat(2000)}</p>` }] });
      return whole.subarray(0, Math.floor(whole.length * 0.6));
    }
    case 'not-a-zip':
      return Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(512)]);
    case 'missing-container':
      return writeZip([
        { name: 'mimetype', data: 'application/epub+zip', method: 0 },
        { name: 'OEBPS/content.opf', data: OPF() },
      ]);
    case 'missing-opf':
      return writeZip([
        { name: 'mimetype', data: 'application/epub+zip', method: 0 },
        { name: 'META-INF/container.xml', data: containerXml('OEBPS/content.opf') },
      ]);
    case 'markup-heavy-opf':
      // empty elements parse slowest per byte: past MAX_XML_MARKUP the package is refused unparsed
      return epubWithPackage(OPF('<x/>'.repeat(MAX_XML_MARKUP)));
    case 'broken-opf':
      return epubWithPackage('<?xml version="1.0"?><package><metadata><dc:title>Broken</metadata></package');
  }
}
