import { Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { changeLanguage, LANGUAGES } from '../../i18n/i18n';
import { LanguageButton } from './LanguageSwitch';

/** The language choices; a chunk of its own (see LanguageSwitch). */
export default function LanguageMenu({ defaultOpened }: { defaultOpened: boolean }) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" withinPortal defaultOpened={defaultOpened}>
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
