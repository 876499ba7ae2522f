/** Base URLs (a channel's, the server address, the WeChat server): one form, one check. */

/** Trimmed, without trailing slashes: paths are appended to it with a leading slash. */
export const trimBaseUrl = (url: string): string => url.trim().replace(/\/+$/, '');

/** An http:// or https:// address that names a host and holds no whitespace. */
export function isHttpBaseUrl(url: string): boolean {
  if (!/^https?:\/\/[^\s/?#]\S*$/i.test(url)) return false;
  try {
    return new URL(url).hostname !== '';
  } catch {
    return false;
  }
}
