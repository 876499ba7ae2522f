import { lazy, Suspense, useState } from 'react';
import { LanguageButton } from './LanguageButton';

// Mantine's Menu (with floating-ui) loads when the reader reaches for the switch, not with every page.
const loadLanguageMenu = () => import('./LanguageMenu');
const LanguageMenu = lazy(loadLanguageMenu);

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
