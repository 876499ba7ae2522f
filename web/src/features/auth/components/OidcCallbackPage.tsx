import { OAuthCallback } from './OAuthCallback';

export function OidcCallbackPage() {
  return <OAuthCallback provider="oidc" />;
}
