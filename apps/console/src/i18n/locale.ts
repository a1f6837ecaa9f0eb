/** The console's two languages. */
export type Locale = 'zh-CN' | 'en';

export const LOCALES: readonly Locale[] = ['zh-CN', 'en'];

const STORAGE_KEY = 'readlib.console.locale';

/**
 * The language to start in: the operator's earlier choice, else the first of the browser's preferred
 * languages that the console has (Chinese when `zh*` comes before `en*`), else English.
 */
export function initialLocale(saved: string | null, preferred: readonly string[]): Locale {
  if (saved === 'zh-CN' || saved === 'en') return saved;
  for (const tag of preferred) {
    const lower = tag.toLowerCase();
    if (lower === 'zh' || lower.startsWith('zh-')) return 'zh-CN';
    if (lower === 'en' || lower.startsWith('en-')) return 'en';
  }
  return 'en';
}

export function savedLocale(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function saveLocale(locale: Locale): void {
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // storage disabled: the choice lasts until the page is left
  }
}
