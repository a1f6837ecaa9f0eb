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
}
