import { Button, type ButtonProps } from '@mantine/core';
import type { ComponentPropsWithRef } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n/i18n';

/** The header's language button: the switch shows it alone, the menu opens from it. */
export function LanguageButton(props: ButtonProps & ComponentPropsWithRef<'button'>) {
  const { t } = useTranslation();
  return (
    <Button variant="subtle" color="gray" size="compact-sm" aria-label={t('nav.language')} {...props}>
      {t(`language.${currentLanguage()}`)}
    </Button>
  );
}
