import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { i18n } from '../i18n/i18n';
import { queryClient } from './query-client';
import { ToastLayer } from './ToastLayer';
import { themeFor } from './theme';

export function Providers({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <Themed>
        <ToastLayer />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </Themed>
    </I18nextProvider>
  );
}

/** Mantine, its own words (the password toggle's label) in the console's language. */
function Themed({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const togglePassword = t('common.togglePassword');
  const theme = useMemo(() => themeFor({ togglePassword }), [togglePassword]);
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      {children}
    </MantineProvider>
  );
}
