import { Button, Group, Modal, Switch, Text } from '@mantine/core';
import type { OptionKey } from '@switchyard/contract/options';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type OptionValues, useSaveOptions } from '../api/options';

/** Switching password login off can lock everyone out: it asks first. */
const CONFIRM_OFF: OptionKey[] = ['PasswordLoginEnabled'];

/** A boolean option, saved as soon as it is flipped ("true" ↔ "false"). */
export function OptionToggle({ optionKey, options }: { optionKey: OptionKey; options: OptionValues }) {
  const { t } = useTranslation();
  const save = useSaveOptions();
  const [confirming, setConfirming] = useState(false);
  const on = options[optionKey] === 'true';
  const flip = () => save.mutate({ changes: [{ key: optionKey, value: on ? 'false' : 'true' }] });

  return (
    <>
      <Switch
        name={optionKey}
        checked={on}
        disabled={save.isPending}
        label={t(`settings.options.${optionKey}.label`)}
        description={t(`settings.options.${optionKey}.hint`, { defaultValue: '' }) || undefined}
        onChange={() => (on && CONFIRM_OFF.includes(optionKey) ? setConfirming(true) : flip())}
      />
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('settings.passwordOff.title')}
        centered
      >
        <Text size="sm">{t('settings.passwordOff.text')}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setConfirming(false)}>
            {t('common.cancel')}
          </Button>
          <Button
            color="yellow"
            onClick={() => {
              setConfirming(false);
              flip();
            }}
          >
            {t('settings.passwordOff.confirm')}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
