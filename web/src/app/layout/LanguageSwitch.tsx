import { Button, type ButtonProps } from '@mantine/core';
import { type ComponentPropsWithRef, lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n/i18n';

// Mantine's Menu (with floating-ui) loads when the reader reaches for the switch, not with every page.
const loadLanguageMenu = () => import('./LanguageMenu');
const LanguageMenu = lazy(loadLanguageMenu);

export function LanguageButton(props: ButtonProps & ComponentPropsWithRef<'button'>) {
  const { t } = useTranslation();
  return (
    <Button variant="subtle" color="gray" size="compact-sm" aria-label={t('nav.language')} {...props}>
      {t(`language.${currentLanguage()}`)}
    </Button>
  );
}

/** A plain button until first clicked; then the menu, opened. Pointing at it fetches the menu early. */
export function LanguageSwitch() {
  const [wanted, setWanted] = useState(false);
  const trigger = (
    <LanguageButton onPointerEnter={() => void loadLanguageMenu()} onClick={() => setWanted(true)} />
  );
  if (!wanted) return trigger;
  return (
    <Suspense fallback={trigger}>
      <LanguageMenu />
    </Suspense>
  );
}
