// Before any schema is built: the console's CSP forbids eval.
import '@switchyard/contract/jitless-schemas';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './app/Providers';
import { router } from './app/router';
import { startConsole } from './app/startup';

startConsole();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Providers>
        {/* Plain updates, so the loading placeholder shows while a page chunk downloads. */}
        <RouterProvider router={router} useTransitions={false} />
      </Providers>
    </StrictMode>,
  );
}
