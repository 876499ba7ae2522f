import { Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { changeLanguage, LANGUAGES } from '../../i18n/i18n';
import { LanguageButton } from './LanguageButton';

/** The language choices, open from the start (the first click asked for them); a chunk of its own. */
export default function LanguageMenu() {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" withinPortal defaultOpened>
      <Menu.Target>
        <LanguageButton />
      </Menu.Target>
      <Menu.Dropdown>
        {LANGUAGES.map((lng) => (
          <Menu.Item key={lng} onClick={() => void changeLanguage(lng)} data-language={lng}>
            {t(`language.${lng}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
