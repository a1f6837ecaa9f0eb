import { setImmediate as nextTurn } from 'node:timers/promises';
import { EpubError } from './errors.js';
import { MarkupGuard } from './markup-guard.js';
import type { SafeZip } from './safe-unzip.js';
import { descendants, readXml } from './xml.js';
import { looksLikeXml } from './xml-guard.js';

const ENCRYPTION_PATH = 'META-INF/encryption.xml';

/** Font obfuscation (IDPF and Adobe) is common in retail books and leaves the text readable. */
const FONT_OBFUSCATION = new Set(['http://www.idpf.org/2008/embedding', 'http://ns.adobe.com/pdf/enc#RC']);

/**
 * Bytes checked between two turns of the event loop. Entries up to 1 MiB are inflated and scanned
 * synchronously, so without a turn between them an archive of 500 such entries (12 MB uploaded,
 * within every ratio limit) held the admin service, and the reader sharing its process, for seconds.
 */
const CHECKED_PER_TURN = 1024 * 1024;

/**
 * Inflates every entry once (CRC, real sizes, totals) and refuses DTDs and entities in every entry
 * that is markup, read as it streams by, so that a book that passes parsing can be unpacked and served
 * without surprises.
 */
export async function verifyArchive(zip: SafeZip): Promise<void> {
  let sinceTurn = 0;
  for (const entry of zip.entries) {
    if (entry.isDirectory) continue;
    const guard = new MarkupGuard(entry.name, looksLikeXml(entry.name));
    await zip.verify(entry.name, (chunk) => guard.write(chunk));
    guard.end();
    // other requests are answered between entries, never after more than CHECKED_PER_TURN bytes
    sinceTurn += entry.size;
    if (sinceTurn >= CHECKED_PER_TURN) {
      sinceTurn = 0;
      await nextTurn();
    }
  }
  await assertNotDrmEncrypted(zip);
}

async function assertNotDrmEncrypted(zip: SafeZip): Promise<void> {
  if (!zip.has(ENCRYPTION_PATH)) return;
  const doc = await readXml(zip, ENCRYPTION_PATH, false);
  const algorithms = descendants(doc, 'EncryptionMethod').map((m) => m.attrs.Algorithm ?? '');
  const drm = algorithms.find((a) => !FONT_OBFUSCATION.has(a));
  if (drm !== undefined) {
    throw new EpubError(
      'ENCRYPTED',
      `the book is DRM-encrypted (${drm || 'unknown algorithm'}) and cannot be read`,
    );
  }
}
