import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

interface FormButtonsProps {
  saving: boolean;
  onCancel: () => void;
  /** Submit off (a record that may no longer change). */
  disabled?: boolean;
}

/** Submit and cancel under a create/edit form. */
export function FormButtons({ saving, onCancel, disabled }: FormButtonsProps) {
  const { t } = useTranslation();
  return (
    <Group gap="sm">
      <Button type="submit" loading={saving} disabled={disabled}>
        {t('common.submit')}
      </Button>
      <Button variant="default" onClick={onCancel}>
        {t('common.cancel')}
      </Button>
    </Group>
  );
}
