import { computed } from 'vue';
import { useI18n } from 'vue-i18n';

/** How the console writes counts: whole, grouped in the operator's language (`1,002,021`). */
export const wholeFigure = (n: number, locale: string): string =>
  new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(n);

/**
 * A count short enough for a chart's value axis, where whole figures of a large catalogue (`100,000`
 * `200,000` ...) run into each other: `100K`, `10万`. Tooltips and tables keep the whole figure.
 */
export const compactFigure = (n: number, locale: string): string =>
  new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(n);

export interface Figures {
  whole(n: number): string;
  compact(n: number): string;
}

/** Both forms in the console's current language (they follow a language switch). */
export function useFigures() {
  const { locale } = useI18n();
  return computed<Figures>(() => {
    const lang = locale.value;
    return { whole: (n) => wholeFigure(n, lang), compact: (n) => compactFigure(n, lang) };
  });
}
