/**
 * An image address the console may load: http(s) only. Anything else a book record holds (a
 * `javascript:` or `data:` URL typed into the cover field) is not shown.
 */
export function imageUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
