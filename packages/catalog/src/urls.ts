/** Builds public URLs of stored files under reader-api's /res/ (decisions.md §1). */
export class PublicUrls {
  constructor(private readonly base: string) {}

  /** A store-relative path (`img/x.png`) as an absolute URL; '' stays '' (no cover). */
  res(relPath: string): string {
    if (!relPath) return '';
    return `${this.base}/res/${relPath.split('/').map(encodeURIComponent).join('/')}`;
  }

  opf(fileName: string, rootFile: string): string {
    return rootFile ? this.res(`unzip/${fileName}/${rootFile}`) : '';
  }

  unzipped(fileName: string, path: string): string {
    return path ? this.res(`unzip/${fileName}/${path}`) : '';
  }

  /** The store-relative path behind one of our own `/res/` URLs ('' for ''), undefined for any other URL. */
  storePath(url: string): string | undefined {
    if (url === '') return '';
    const prefix = `${this.base}/res/`;
    if (!url.startsWith(prefix)) return undefined;
    try {
      return url.slice(prefix.length).split('/').map(decodeURIComponent).join('/');
    } catch {
      return undefined;
    }
  }
}
