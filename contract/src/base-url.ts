/** Base URLs (a channel's, the server address, the WeChat server): one form, one check. */

/** Trimmed, without trailing slashes: paths are appended to it with a leading slash. */
export const trimBaseUrl = (url: string): string => url.trim().replace(/\/+$/, '');

/** The scheme, then the authority (user info, host, port) up to the path, query or fragment. */
const HTTP_URL = /^https?:\/\/([^\s/?#]+)(?:[/?#]\S*)?$/i;

/** An http:// or https:// address that names a host and holds no whitespace. */
export function isHttpBaseUrl(url: string): boolean {
  const authority = HTTP_URL.exec(url)?.[1];
  if (!authority) return false;
  const host = authority.slice(authority.lastIndexOf('@') + 1).replace(/:\d*$/, '');
  return host !== '' && host !== '[]';
}
