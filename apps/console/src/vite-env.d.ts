/// <reference types="vite/client" />

declare module 'vue-router' {
  interface RouteMeta {
    /** reachable without a token */
    public?: boolean;
  }
}

export {};
