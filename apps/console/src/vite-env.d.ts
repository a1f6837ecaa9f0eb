/// <reference types="vite/client" />

declare module 'vue-router' {
  interface RouteMeta {
    /** reachable without a token */
    public?: boolean;
    /** the menu entry (a route name) shown as where the operator is, on a page without one of its own */
    menu?: string;
  }
}

export {};
