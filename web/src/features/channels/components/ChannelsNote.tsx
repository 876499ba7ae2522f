import { Alert, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readItem, writeItem } from '../../../lib/storage';

const PROMPT = 'prompt-channel-test' as const;

/** The one-time note about OpenAI balances and channel tests; closing it is remembered. */
export function ChannelsNote() {
  const { t } = useTranslation();
  const [shown, setShown] = useState(() => readItem(PROMPT) === null);
  if (!shown) return null;
  return (
    <Alert
      color="blue"
      variant="light"
      mb="md"
      withCloseButton
      classNames={{ closeButton: 'tap-target' }}
      closeButtonLabel={t('channels.closeNote')}
      onClose={() => {
        writeItem(PROMPT, 'true');
        setShown(false);
      }}
      data-testid="channels-note"
    >
      <Text size="sm">{t('channels.note')}</Text>
      <Text size="sm" mt={4}>
        {t('channels.testNote')}
      </Text>
    </Alert>
  );
}
