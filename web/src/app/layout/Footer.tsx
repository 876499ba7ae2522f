import { Anchor, Box, Text } from '@mantine/core';
import { PRODUCT_NAME, SOURCE_URL } from '@switchyard/contract/status';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { getSystemName, useServerStatus } from '../../lib/server-status';

const MIT_URL = 'https://opensource.org/licenses/mit-license.php';

const FooterHtml = lazy(() => import('./FooterHtml'));

/** The administrator's footer HTML, or the default credit line with source link and licence. */
export function Footer() {
  const status = useServerStatus();
  const custom = status?.footer_html;
  return (
    <Box component="footer" py="lg" px="md" ta="center" c="dimmed" fz="sm" data-testid="footer">
      {custom ? (
        // The default credit line shows until the sanitiser has loaded.
        <Suspense fallback={<CreditLine />}>
          <FooterHtml html={custom} />
        </Suspense>
      ) : (
        <CreditLine />
      )}
    </Box>
  );
}

function CreditLine() {
  const { t } = useTranslation();
  const status = useServerStatus();
  return (
    <Text fz="sm" c="dimmed">
      {status?.system_name || getSystemName()} {status?.version ?? ''} · {t('footer.poweredBy')}{' '}
      <Anchor href={SOURCE_URL} target="_blank" rel="noreferrer" fz="sm">
        {PRODUCT_NAME}
      </Anchor>{' '}
      {t('footer.licence')}{' '}
      <Anchor href={MIT_URL} target="_blank" rel="noreferrer" fz="sm">
        {t('footer.mit')}
      </Anchor>
    </Text>
  );
}
