import type { AdminBookDetail, AdminCategory, AdminUser } from '@readlib/contracts';
import type { BookRow, CategoryCount, NewTocEntry, Operator, TocEntry } from '@readlib/data';
import type { TocEntry as EpubTocEntry } from '@readlib/epub';
import { toAdminBook, toContents, toContentsTree } from '../book.mapper.js';
import type { PublicUrls } from '../urls.js';
import type { PendingBook } from './pending-book.js';

// Admin rows become contract types here and only here (the shared ones live in ../book.mapper.ts).

export function toAdminUser(op: Operator): AdminUser {
  let roles: string[] = [];
  try {
    const parsed: unknown = JSON.parse(op.roles);
    if (Array.isArray(parsed)) roles = parsed.map(String);
  } catch {
    // a hand-edited, malformed roles column means no roles, not a failed request
  }
  return { avatar: op.avatar, id: op.id, nickname: op.nickname, username: op.username, roles };
}

export function toAdminCategory(c: CategoryCount): AdminCategory {
  return { label: c.name, value: c.id, num: c.num };
}

export function toAdminBookDetail(row: BookRow, toc: TocEntry[], urls: PublicUrls): AdminBookDetail {
  const contents = toContents(row.file_name, toc, urls);
  return {
    ...toAdminBook(row, urls),
    filePath: row.file_path,
    unzipPath: row.unzip_path,
    coverPath: row.cover_path,
    originalName: row.original_name,
    contents,
    contentsTree: toContentsTree(contents),
  };
}

/** An uploaded book not yet in the catalogue: id is '' until POST /book/create. */
export function pendingToAdminBookDetail(
  p: PendingBook,
  categoryText: string,
  urls: PublicUrls,
): AdminBookDetail {
  const contents = toContents(p.fileName, p.contents.map(toTocRow), urls);
  return {
    id: '',
    fileName: p.fileName,
    title: p.title,
    author: p.author,
    publisher: p.publisher,
    language: p.language,
    category: p.categoryId,
    categoryText,
    cover: urls.res(p.coverPath),
    rootFile: p.rootFile,
    filePath: p.filePath,
    unzipPath: p.unzipPath,
    coverPath: p.coverPath,
    originalName: p.originalName,
    contents,
    contentsTree: toContentsTree(contents),
  };
}

export function toTocRow(e: EpubTocEntry): NewTocEntry {
  return {
    ord: e.order,
    entry_id: e.id,
    nav_id: e.navId,
    pid: e.pid,
    href: e.href,
    label: e.label,
    level: e.level,
    text: e.text,
  };
}
