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
 * The file paths a create or an update sends must name the book's own files in the store. Otherwise,
 * after the expiry sweep, a create repeating an expired upload's paths makes a book whose files are
 * missing; an update takes any path, `../` included, which `cover` then publishes as a URL; and a cover
 * can name a folder, or another book's cover, which goes when that book is deleted.
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
 * `/res/unzip/<fileName>/<rootFile>`, so a `../` path or one naming nothing would make the book
 * unreadable. Empty is left as sent: a book created without an upload has no package file.
 */
async function assertRootFile(store: FileStore, fileName: string, rootFile: string | undefined) {
  if (!rootFile) return;
  const escapes = rootFile.startsWith('/') || rootFile.split(/[\\/]/).some((s) => s === '..' || s === '.');
  const kind = escapes ? undefined : await store.kindOf(`unzip/${fileName}/${rootFile}`);
  if (kind !== 'file')
    throw invalid(`rootFile ${rootFile} is not a file of book ${fileName}'s unpacked folder`);
}
