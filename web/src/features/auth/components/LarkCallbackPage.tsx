import { OAuthCallback } from './OAuthCallback';

export function LarkCallbackPage() {
  return <OAuthCallback provider="lark" />;
}
