/** Where a key can be taken to chat, as one-api's token list offers it. */
export type ChatApp = 'next-web' | 'botgem' | 'opencat';

export const CHAT_APPS: readonly ChatApp[] = ['next-web', 'botgem', 'opencat'];

/** The hosted ChatGPT Next Web one-api opens when the administrator set no chat link. */
export const DEFAULT_CHAT_WEB_APP = 'https://chat.oneapi.pro';

export interface ChatLinkContext {
  /** The ChatLink option (a ChatGPT Next Web deployment); empty for the hosted default. */
  chatLink: string;
  /** The gateway's public address: the ServerAddress option, else the console's own origin. */
  serverAddress: string;
}

/** The link that hands `sk-<key>` and the server address to a chat app. */
export function chatAppLink(app: ChatApp, key: string, { chatLink, serverAddress }: ChatLinkContext): string {
  const secret = `sk-${key}`;
  const server = encodeURIComponent(serverAddress);
  switch (app) {
    case 'next-web': {
      const base = (chatLink || DEFAULT_CHAT_WEB_APP).replace(/\/+$/, '');
      return `${base}/#/?settings=${JSON.stringify({ key: secret, url: serverAddress })}`;
    }
    case 'botgem':
      return `ama://set-api-key?server=${server}&key=${secret}`;
    case 'opencat':
      return `opencat://team/join?domain=${server}&token=${secret}`;
  }
}

/** Web links open in a new tab; the apps' own schemes are handed to the system in place. */
export const opensInNewTab = (app: ChatApp): boolean => app === 'next-web';
