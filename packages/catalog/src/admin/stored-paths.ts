import type { BookUpdate } from '@readlib/data';
import type { FileStore } from '@readlib/epub';
import { invalid } from '../errors.js';

/**
 * The file paths a create or an update sends must name files in the store. After the expiry sweep, a
 * create repeating an expired upload's paths made a book whose files were missing, and an update took
 * any path, `../` included, which `cover` then published as a URL (both found by audits).
 */
export async function assertStored(
  store: FileStore,
  columns: Pick<BookUpdate, 'file_path' | 'unzip_path' | 'cover_path'>,
): Promise<void> {
  const paths = { filePath: columns.file_path, unzipPath: columns.unzip_path, coverPath: columns.cover_path };
  for (const [field, path] of Object.entries(paths)) {
    if (path && !(await store.has(path)))
      throw invalid(
        `${field} ${path} is not in the store (an expired upload's files are removed): upload the book again`,
      );
  }
}
