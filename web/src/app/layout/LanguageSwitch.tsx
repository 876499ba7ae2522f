import { Button, type ButtonProps } from '@mantine/core';
import { type ComponentPropsWithRef, lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n/i18n';

// Mantine's Menu (with floating-ui) loads when the reader reaches for the switch, not with every page.
const LanguageMenu = lazy(() => import('./LanguageMenu'));

export function LanguageButton(props: ButtonProps & ComponentPropsWithRef<'button'>) {
  const { t } = useTranslation();
  return (
    <Button variant="subtle" color="gray" size="compact-sm" aria-label={t('nav.language')} {...props}>
      {t(`language.${currentLanguage()}`)}
    </Button>
  );
}

export function LanguageSwitch() {
  const [menu, setMenu] = useState<'closed' | 'opened' | null>(null);
  const prepare = () => setMenu((state) => state ?? 'closed');
  const trigger = (
    <LanguageButton onPointerEnter={prepare} onFocus={prepare} onClick={() => setMenu('opened')} />
  );
  if (!menu) return trigger;
  return (
    <Suspense fallback={trigger}>
      <LanguageMenu defaultOpened={menu === 'opened'} />
    </Suspense>
  );
}
