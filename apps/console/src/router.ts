import { createRouter, createWebHistory, type RouteLocationRaw } from 'vue-router';
import { loggedIn, onSessionChange, sessionKnown } from './api/admin-api';
import { rememberList } from './books/list-return';
import { holdsWork, settleSignIn, signInAgain } from './session/sign-in-again';

/** Each page is its own chunk, loaded when first shown. */
export const router = createRouter({
  history: createWebHistory(import.meta.env.BASE_URL),
  routes: [
    {
      path: '/login',
      name: 'login',
      component: () => import('./pages/login.page.vue'),
      meta: { public: true },
    },
    {
      path: '/',
      component: () => import('./layouts/console.layout.vue'),
      children: [
        { path: '', redirect: { name: 'dashboard' } },
        { path: 'dashboard', name: 'dashboard', component: () => import('./pages/dashboard.page.vue') },
        { path: 'books', name: 'books', component: () => import('./pages/books.page.vue') },
        { path: 'books/upload', name: 'upload', component: () => import('./pages/upload.page.vue') },
        {
          path: 'books/:fileName/edit',
          name: 'edit',
          component: () => import('./pages/edit.page.vue'),
          props: true,
          // a book's page belongs to the list: the menu shows Books as where the operator is
          meta: { menu: 'books' },
        },
        { path: 'categories', name: 'categories', component: () => import('./pages/categories.page.vue') },
        { path: 'profile', name: 'profile', component: () => import('./pages/profile.page.vue') },
      ],
    },
    { path: '/:unknown(.*)*', redirect: { name: 'dashboard' } },
  ],
});

/** The login page after a session ended (it says so), then back to `from`. */
export const loginAgain = (from: string): RouteLocationRaw => ({
  name: 'login',
  query: { redirect: from, expired: '1' },
});

/** Where the login page sends the operator afterwards: a path inside the console, never elsewhere. */
export function afterLogin(redirect: unknown): RouteLocationRaw {
  if (typeof redirect === 'string' && redirect.startsWith('/') && !redirect.startsWith('//')) {
    const target = router.resolve(redirect);
    if (target.matched.length > 0 && target.name !== 'login') return target.fullPath;
  }
  return { name: 'dashboard' };
}

router.beforeEach(async (to) => {
  // a new tab may be handed the token of another console tab first
  await sessionKnown;
  if (to.meta.public) return loggedIn() && to.name === 'login' ? afterLogin(to.query.redirect) : true;
  return loggedIn() ? true : { name: 'login', query: { redirect: to.fullPath } };
});

// the books list as last seen, for the ways back to it (books/list-return.ts)
router.afterEach((to) => {
  if (to.name === 'books') rememberList(to.query);
});

onSessionChange({
  // a token refused anywhere (expired, revoked) or a logout in another tab: the login asked over a page
  // holding work, which then goes on; elsewhere the login page, then back to this page
  ended() {
    const here = router.currentRoute.value;
    if (here.name === 'login') return undefined;
    if (holdsWork()) return signInAgain();
    void router.replace(loginAgain(here.fullPath));
    return undefined;
  },
  // a login in another tab: the login asked here is answered, a tab waiting on the login page goes on
  signedInElsewhere(token) {
    settleSignIn(token);
    const here = router.currentRoute.value;
    if (here.name === 'login') void router.replace(afterLogin(here.query.redirect));
  },
});
