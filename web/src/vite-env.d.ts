/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base address of the server's /api; empty (the default) means same origin. */
  readonly VITE_SERVER_URL?: string;
}
