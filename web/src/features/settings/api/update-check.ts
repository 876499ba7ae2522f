import { SOURCE_URL } from '@switchyard/contract/status';
import { useMutation } from '@tanstack/react-query';
import { readItem, StorageKey } from '../../../lib/storage';

/** The public "latest release" endpoint of our repository; a build may point elsewhere. */
export const DEFAULT_RELEASES_URL: string =
  import.meta.env.VITE_RELEASES_URL ||
  `${SOURCE_URL.replace('https://github.com/', 'https://api.github.com/repos/')}/releases/latest`;

/** The address the check asks: root's override in this browser, else the built-in one. */
export const releasesUrl = (): string => readItem(StorageKey.releasesUrl) || DEFAULT_RELEASES_URL;

export interface Release {
  tag_name: string;
  body: string;
  html_url: string;
}

/** GET the releases endpoint (outside our API: no envelope, no session). */
export function useCheckUpdate() {
  return useMutation({
    mutationFn: async (url: string): Promise<Release> => {
      const response = await fetch(url, { headers: { Accept: 'application/vnd.github+json' } });
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`.trim());
      const release = (await response.json()) as Partial<Release>;
      if (typeof release.tag_name !== 'string' || !release.tag_name) {
        throw new Error('the answer has no tag_name');
      }
      return { tag_name: release.tag_name, body: release.body ?? '', html_url: release.html_url ?? '' };
    },
  });
}
