/**
 * A text filter as the services read it: trimmed, and blank as not sent. A search box that keeps a
 * trailing space (`dune `) means `dune`; kept, it would also ask the gram index for a gram with white
 * space in it, which it never holds (`e ` found nothing).
 */
export function givenText(value: string | undefined): string | undefined {
  return value?.trim() || undefined;
}
