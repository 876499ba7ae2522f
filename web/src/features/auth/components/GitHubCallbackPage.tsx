import { OAuthCallback } from './OAuthCallback';

export function GitHubCallbackPage() {
  return <OAuthCallback provider="github" />;
}
