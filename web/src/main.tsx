// Before any schema is built: the console's CSP forbids eval.
import '@switchyard/contract/jitless-schemas';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { Providers } from './app/Providers';
import { RouteErrorBoundary } from './app/RouteErrorBoundary';
import { ConsoleRoutes } from './app/router';
import { startConsole } from './app/startup';
import { currentLanguage, loadMessages } from './i18n/i18n';

startConsole();

function render(root: HTMLElement): void {
  createRoot(root).render(
    <StrictMode>
      <Providers>
        {/* Plain updates, so the loading placeholder shows while a page chunk downloads. */}
        <BrowserRouter useTransitions={false}>
          <RouteErrorBoundary>
            <ConsoleRoutes />
          </RouteErrorBoundary>
        </BrowserRouter>
      </Providers>
    </StrictMode>,
  );
}

const root = document.getElementById('root');
// The first render waits for the messages of the reader's language (their own chunk); without them
// (a failed download) the console still starts.
if (root) {
  void loadMessages(currentLanguage())
    .catch(() => undefined)
    .then(() => render(root));
}
