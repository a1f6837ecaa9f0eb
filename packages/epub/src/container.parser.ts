import { EpubError } from './errors.js';
import { leavesArchive, safeDecode } from './paths.js';
import type { SafeZip } from './safe-unzip.js';
import { descendants, readXml } from './xml.js';

export const CONTAINER_PATH = 'META-INF/container.xml';

/** Path of the first OPF rootfile named by META-INF/container.xml. */
export async function readRootFile(zip: SafeZip): Promise<string> {
  if (!zip.has(CONTAINER_PATH)) {
    throw new EpubError('MISSING_CONTAINER', `${CONTAINER_PATH} is missing: not an EPUB`);
  }
  const doc = await readXml(zip, CONTAINER_PATH);
  const rootfiles = descendants(doc, 'rootfile');
  const opf =
    rootfiles.find(
      (r) => r.attrs['media-type'] === 'application/oebps-package+xml' && r.attrs['full-path'],
    ) ?? rootfiles.find((r) => r.attrs['full-path']);
  const fullPath = opf?.attrs['full-path']?.trim();
  if (!fullPath) throw new EpubError('MISSING_OPF', `${CONTAINER_PATH} names no rootfile`);
  // a path out of the archive is an attack, not a missing file: refused like such an entry name (422)
  if (leavesArchive(fullPath) || leavesArchive(safeDecode(fullPath)))
    throw new EpubError(
      'UNSAFE_PATH',
      `${CONTAINER_PATH} names a package document outside the archive: ${JSON.stringify(fullPath.slice(0, 200))}`,
    );
  const actual = zip.resolveName(fullPath) ?? zip.resolveName(safeDecode(fullPath));
  if (!actual)
    throw new EpubError('MISSING_OPF', `the package document ${JSON.stringify(fullPath)} is missing`);
  return actual;
}
