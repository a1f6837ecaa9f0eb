/**
 * What the console's tabs open in one browser profile tell each other about the operator's session, on
 * a BroadcastChannel of the page's origin: a tab that logs in or out says so, and a tab opened without
 * a token (a link opened in a new tab, a pasted address) asks the others for theirs. The token travels
 * only between tabs of the same origin, never through a URL or localStorage: once every console tab is
 * closed, no token is left to hand over.
 */
type Message =
  | { kind: 'ask' }
  | { kind: 'answer'; token?: string }
  | { kind: 'signed-in'; token: string }
  | { kind: 'signed-out' };

const CHANNEL = 'readlib.console.session';
/**
 * A Web Lock held (shared) by every tab that has a token and let go when it has none or closes, so a
 * new tab knows at once whether any tab could answer it. Web Locks exist in secure contexts only
 * (https, localhost): elsewhere a new tab waits `BLIND_WAIT_MS` for an answer that may not come.
 */
const SIGNED_IN_LOCK = 'readlib.console.signed-in';
/** How long a new tab waits for a signed-in tab's answer (a tab busy drawing charts answers late). */
const ANSWER_WAIT_MS = 3_000;
const BLIND_WAIT_MS = 300;

export interface TabEvents {
  /** this tab's token, if any, to answer a new tab with */
  current(): string | undefined;
  /** another tab logged in */
  signedIn(token: string): void;
  /** another tab logged out */
  signedOut(): void;
}

export interface TabChannel {
  /** this tab logged in (a token) or out (undefined): the other tabs are told */
  tell(token: string | undefined): void;
  /** this tab has a token now, or has none: marks it as one that can answer */
  mark(signedIn: boolean): void;
  /** the token of a signed-in tab of this browser, or undefined when none answers */
  ask(): Promise<string | undefined>;
}

/** Whether a token's own expiry (`exp` of its payload) has passed: such a token is not handed on. */
export function hasExpired(token: string, now = Date.now()): boolean {
  try {
    const payload = token.split('.')[1] ?? '';
    const { exp } = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof exp === 'number' && exp * 1000 <= now;
  } catch {
    return false;
  }
}

/** How many tabs say they have a token (undefined where Web Locks cannot tell). */
async function signedInTabs(): Promise<number | undefined> {
  if (!('locks' in navigator)) return undefined;
  try {
    const { held = [] } = await navigator.locks.query();
    return held.filter((lock) => lock.name === SIGNED_IN_LOCK).length;
  } catch {
    return undefined;
  }
}

export function openTabChannel(events: TabEvents): TabChannel {
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : undefined;
  const post = (message: Message) => channel?.postMessage(message);
  let waiting: ((token: string | undefined) => void) | undefined;
  let letGo: (() => void) | undefined;

  channel?.addEventListener('message', (event: MessageEvent<Message>) => {
    const message = event.data;
    if (message.kind === 'ask') {
      // every tab with a token answers, with nothing when its token has expired
      const token = events.current();
      if (token) post(hasExpired(token) ? { kind: 'answer' } : { kind: 'answer', token });
    } else if (message.kind === 'answer') waiting?.(message.token);
    else if (message.kind === 'signed-in') events.signedIn(message.token);
    else if (message.kind === 'signed-out') events.signedOut();
  });

  return {
    tell(token) {
      post(token ? { kind: 'signed-in', token } : { kind: 'signed-out' });
    },
    mark(signedIn) {
      if (signedIn && !letGo && 'locks' in navigator) {
        // made before the request, so a mark taken off before the lock is granted lets it go at once
        const held = new Promise<void>((resolve) => {
          letGo = resolve;
        });
        navigator.locks.request(SIGNED_IN_LOCK, { mode: 'shared' }, () => held).catch(() => {});
      } else if (!signedIn && letGo) {
        letGo();
        letGo = undefined;
      }
    },
    async ask() {
      if (!channel) return undefined;
      const tabs = await signedInTabs();
      if (tabs === 0) return undefined;
      return new Promise<string | undefined>((resolve) => {
        let answers = 0;
        const done = (token: string | undefined) => {
          clearTimeout(timer);
          waiting = undefined;
          resolve(token);
        };
        const timer = setTimeout(() => done(undefined), tabs ? ANSWER_WAIT_MS : BLIND_WAIT_MS);
        // the first token, or none once every signed-in tab has answered without one
        waiting = (token) => {
          answers += 1;
          if (token || answers === tabs) done(token);
        };
        post({ kind: 'ask' });
      });
    },
  };
}
