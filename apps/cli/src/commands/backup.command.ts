import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createDb, type Database } from '@readlib/data';
import { type Kysely, sql } from 'kysely';

// main.ts and the tests take the pair of commands from here
export { type RestoreResult, restoreSqlite } from './restore.command.js';

export interface BackupManifest {
  createdAt: string;
  database: 'library.db';
  books: number;
  uploads: number;
  files: number;
  bytes: number;
  /** books whose files were already gone when the backup ran (deleted while it ran, or damaged) */
  missing: string[];
}

async function sizeOf(path: string): Promise<{ files: number; bytes: number }> {
  const s = await stat(path);
  if (!s.isDirectory()) return { files: 1, bytes: s.size };
  let files = 0;
  let bytes = 0;
  for (const e of await readdir(path)) {
    const r = await sizeOf(join(path, e));
    files += r.files;
    bytes += r.bytes;
  }
  return { files, bytes };
}

/**
 * A consistent online snapshot: `VACUUM INTO` copies the database as of one read transaction while the
 * services keep writing; then only the files of the books (and pending uploads) in that snapshot are
 * copied. Book files never change once stored, so the pair is consistent without stopping anything.
 *
 * A new destination is written beside it under a dot-name and renamed into place when complete, so a
 * failed backup (a full disk) leaves nothing that a retry would refuse as not empty. An empty folder
 * that is already there (maybe a mount point, which a rename cannot replace) is written into, and
 * emptied again if the backup fails.
 */
export async function backupSqlite(
  db: Kysely<Database>,
  storeRoot: string,
  dest: string,
): Promise<BackupManifest> {
  const existed = existsSync(dest);
  if (existed && (await readdir(dest)).length > 0) throw new Error(`backup: ${dest} exists and is not empty`);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const into = existed ? dest : join(dirname(dest), `.${basename(dest)}.partial-${stamp}`);
  try {
    const manifest = await writeBackup(db, storeRoot, into);
    if (!existed) await rename(into, dest);
    return manifest;
  } catch (err) {
    if (existed)
      for (const name of await readdir(dest)) await rm(join(dest, name), { recursive: true, force: true });
    else await rm(into, { recursive: true, force: true });
    throw err;
  }
}

async function writeBackup(db: Kysely<Database>, storeRoot: string, dest: string): Promise<BackupManifest> {
  await mkdir(join(dest, 'storage'), { recursive: true });
  const dbFile = join(dest, 'library.db');
  await sql`vacuum into ${dbFile}`.execute(db);

  const snap = createDb({ dialect: 'sqlite', file: dbFile });
  const books = await snap.db.selectFrom('books').select(['file_name', 'cover_path']).execute();
  const uploads = await snap.db.selectFrom('uploads').select('file_name').execute();
  await snap.destroy();

  const manifest: BackupManifest = {
    createdAt: new Date().toISOString(),
    database: 'library.db',
    books: books.length,
    uploads: uploads.length,
    files: 0,
    bytes: 0,
    missing: [],
  };
  const imgs = existsSync(join(storeRoot, 'img')) ? await readdir(join(storeRoot, 'img')) : [];
  for (const name of [...books.map((b) => b.file_name), ...uploads.map((u) => u.file_name)]) {
    const parts = [
      `epub/${name}.epub`,
      `unzip/${name}`,
      ...imgs.filter((i) => i.startsWith(`${name}.`)).map((i) => `img/${i}`),
    ];
    if (!existsSync(join(storeRoot, parts[0]!))) manifest.missing.push(name);
    for (const rel of parts) {
      const from = join(storeRoot, rel);
      if (!existsSync(from)) continue;
      await cp(from, join(dest, 'storage', rel), { recursive: true, errorOnExist: true, force: false });
      const s = await sizeOf(from);
      manifest.files += s.files;
      manifest.bytes += s.bytes;
    }
  }
  await writeFile(join(dest, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
