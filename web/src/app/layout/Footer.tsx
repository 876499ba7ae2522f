import { Anchor, Box, Text } from '@mantine/core';
import { PRODUCT_NAME, SOURCE_URL } from '@switchyard/contract/status';
import { useTranslation } from 'react-i18next';
import { sanitizeHtml } from '../../lib/markdown';
import { getSystemName, useServerStatus } from '../../lib/server-status';

const MIT_URL = 'https://opensource.org/licenses/mit-license.php';

/** The administrator's footer HTML, or the default credit line with source link and licence. */
export function Footer() {
  const { t } = useTranslation();
  const status = useServerStatus();
  const custom = status?.footer_html;
  return (
    <Box component="footer" py="lg" px="md" ta="center" c="dimmed" fz="sm" data-testid="footer">
      {custom ? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify
        <div className="rich-content" dangerouslySetInnerHTML={{ __html: sanitizeHtml(custom) }} />
      ) : (
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
      )}
    </Box>
  );
}
