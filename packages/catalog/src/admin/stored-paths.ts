import { invalid } from '@readlib/contracts';
import type { BookUpdate } from '@readlib/data';
import type { FileStore } from '@readlib/epub';

type StoredColumns = Pick<BookUpdate, 'file_path' | 'unzip_path' | 'cover_path' | 'root_file'>;

/**
 * Where the files of book `fileName` live (FileStore.putBook): its archive, its unpacked folder, and a
 * cover beside the others in `img/` or any image of its own unpacked book.
 */
function ownedBy(fileName: string, field: 'filePath' | 'unzipPath' | 'coverPath', path: string): boolean {
  if (field === 'filePath') return path === `epub/${fileName}.epub`;
  if (field === 'unzipPath') return path === `unzip/${fileName}`;
  return path.startsWith(`img/${fileName}.`) || path.startsWith(`unzip/${fileName}/`);
}

/**
 * The file paths a create or an update sends must name the book's own files in the store. After the
 * expiry sweep, a create repeating an expired upload's paths made a book whose files were missing; an
 * update took any path, `../` included, which `cover` then published as a URL; and a cover could name a
 * folder, or another book's cover, which went when that book was deleted (all found by audits).
 */
export async function assertStored(
  store: FileStore,
  fileName: string,
  columns: StoredColumns,
): Promise<void> {
  const paths = { filePath: columns.file_path, unzipPath: columns.unzip_path, coverPath: columns.cover_path };
  await assertRootFile(store, fileName, columns.root_file);
  for (const [field, path] of Object.entries(paths) as Array<[keyof typeof paths, string | undefined]>) {
    if (!path) continue;
    if (!ownedBy(fileName, field, path)) throw invalid(`${field} ${path} is not a file of book ${fileName}`);
    const kind = await store.kindOf(path);
    if (kind === undefined)
      throw invalid(
        `${field} ${path} is not in the store (an expired upload's files are removed): upload the book again`,
      );
    if ((kind === 'folder') !== (field === 'unzipPath'))
      throw invalid(`${field} ${path} names a ${kind}, not a ${field === 'unzipPath' ? 'folder' : 'file'}`);
  }
}

/**
 * rootFile is the package document's path inside the book's unpacked folder: `opf` publishes it as
 * `/res/unzip/<fileName>/<rootFile>`, so a `../` path or one naming nothing made the book unreadable
 * (found by an audit). Empty is left as sent: a book created without an upload has no package file.
 */
async function assertRootFile(store: FileStore, fileName: string, rootFile: string | undefined) {
  if (!rootFile) return;
  const escapes = rootFile.startsWith('/') || rootFile.split(/[\\/]/).some((s) => s === '..' || s === '.');
  const kind = escapes ? undefined : await store.kindOf(`unzip/${fileName}/${rootFile}`);
  if (kind !== 'file')
    throw invalid(`rootFile ${rootFile} is not a file of book ${fileName}'s unpacked folder`);
}
