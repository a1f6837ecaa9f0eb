import { type BookFormState, TEXT_FIELDS } from './book-form.state';

/**
 * The edit form of a book that was not saved because the session ended (Save refused with 401, or any
 * call of the page): kept in this tab's sessionStorage under the book's fileName while the operator
 * logs in again, and taken (read and removed) when that book's edit page loads next. Storage may be
 * disabled: nothing is kept then.
 */
export interface EditDraft {
  /** the book as the form had it from the service */
  saved: BookFormState;
  /** the form as the operator left it */
  form: BookFormState;
}

const keyOf = (fileName: string) => `readlib.console.draft.${fileName}`;

export function keepDraft(fileName: string, draft: EditDraft): void {
  try {
    sessionStorage.setItem(keyOf(fileName), JSON.stringify(draft));
  } catch {
    // not kept: the form is lost as before
  }
}

const isForm = (v: unknown): v is BookFormState =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as BookFormState).text === 'object' &&
  (v as BookFormState).text !== null;

/** The draft kept for this book, removed from the storage (a reload does not bring it back twice). */
export function takeDraft(fileName: string): EditDraft | undefined {
  try {
    const stored = sessionStorage.getItem(keyOf(fileName));
    sessionStorage.removeItem(keyOf(fileName));
    const draft = stored ? (JSON.parse(stored) as Partial<EditDraft>) : undefined;
    return draft && isForm(draft.saved) && isForm(draft.form)
      ? { saved: draft.saved, form: draft.form }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The operator's changes (the fields where the draft's form differs from what it had been given) over
 * the book as the service has it now: a field someone else changed meanwhile and the operator did not
 * touch keeps its new value. Undefined when nothing of the draft differs from `current`.
 */
export function reapply(draft: EditDraft, current: BookFormState): BookFormState | undefined {
  const next: BookFormState = { ...current, text: { ...current.text } };
  let changed = false;
  for (const field of TEXT_FIELDS) {
    const typed = draft.form.text[field];
    if (typeof typed === 'string' && typed !== draft.saved.text[field] && typed !== next.text[field]) {
      next.text[field] = typed;
      changed = true;
    }
  }
  if (draft.form.categoryMode === 'new' && draft.form.newCategory?.trim()) {
    next.categoryMode = 'new';
    next.newCategory = draft.form.newCategory;
    changed = true;
  } else if (draft.form.categoryId !== draft.saved.categoryId && draft.form.categoryId !== next.categoryId) {
    next.categoryId = draft.form.categoryId;
    changed = true;
  }
  return changed ? next : undefined;
}
