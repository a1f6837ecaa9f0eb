import { ref } from 'vue';

/**
 * A session that ends (a token refused, a logout in another tab) while the page holds work the
 * catalogue does not have yet (an upload on its way or parsed, unsaved edits) is taken up again in
 * place: a login dialog over the page (session-dialog.vue) instead of the login page, and the refused
 * calls sent again with the new token (the SDK's `onUnauthorized` retry, which sends an upload's whole
 * file again), so nothing of the page is lost. Pages without such work go to the login page as before.
 */
const holders = new Set<() => boolean>();

/** Registers a shown page's work (`unsaved` is read when a session ends); returns its release. */
export function holdWork(unsaved: () => boolean): () => void {
  holders.add(unsaved);
  return () => {
    holders.delete(unsaved);
  };
}

export const holdsWork = (): boolean => [...holders].some((unsaved) => unsaved());

/** Whether the login dialog is shown. */
export const signInAsked = ref(false);
let asked: Promise<string | undefined> | undefined;
let settle: ((token: string | undefined) => void) | undefined;

/**
 * The new token once the operator has logged in again, or undefined when they chose the login page:
 * one dialog, whose answer every call refused meanwhile waits for.
 */
export function signInAgain(): Promise<string | undefined> {
  asked ??= new Promise<string | undefined>((resolve) => {
    signInAsked.value = true;
    settle = (token) => {
      asked = undefined;
      settle = undefined;
      signInAsked.value = false;
      resolve(token);
    };
  });
  return asked;
}

/** Ends the dialog, if one is shown: with a token (a login here or in another tab), or without. */
export function settleSignIn(token: string | undefined): void {
  settle?.(token);
}
