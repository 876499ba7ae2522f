import { Button, Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { copyOrHandOver } from '../../../lib/clipboard';
import { usePublicAddress, useServerStatus } from '../../../lib/server-status';
import { CHAT_APPS, type ChatApp, type ChatLinkContext, chatAppLink, opensInNewTab } from '../chat-links';

function useChatLinkContext(): ChatLinkContext {
  const status = useServerStatus();
  return { chatLink: status?.chat_link ?? '', serverAddress: usePublicAddress() };
}

function openChat(app: ChatApp, link: string): void {
  if (opensInNewTab(app)) window.open(link, '_blank', 'noopener,noreferrer');
  else window.location.href = link;
}

/** A split button: the main part does the usual thing, the arrow offers the chat apps. */
function SplitButton({
  label,
  moreLabel,
  color,
  onMain,
  items,
}: {
  label: string;
  moreLabel: string;
  color: string;
  onMain: () => void;
  items: Array<{ app: ChatApp; label: string; onClick: () => void }>;
}) {
  return (
    <Button.Group>
      <Button size="compact-sm" color={color} onClick={onMain}>
        {label}
      </Button>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="compact-sm" color={color} px={6} aria-label={moreLabel}>
            ▾
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {items.map((item) => (
            <Menu.Item key={item.app} onClick={item.onClick} data-app={item.app}>
              {item.label}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    </Button.Group>
  );
}

interface TokenChatActionsProps {
  tokenKey: string;
  /** Where a text goes when the clipboard refuses it: the search box, to copy by hand. */
  onCopyFailed: (text: string) => void;
}

/**
 * Copy (the key, or a link that hands it to a chat app) and Chat (open ChatGPT Next Web, or an app):
 * the choices of one-api's token list.
 */
export function TokenChatActions({ tokenKey, onCopyFailed }: TokenChatActionsProps) {
  const { t } = useTranslation();
  const context = useChatLinkContext();
  const link = (app: ChatApp) => chatAppLink(app, tokenKey, context);
  const messages = { copied: t('tokens.copied'), refused: t('tokens.copyFailed') };
  const copy = (text: string) => void copyOrHandOver(text, messages, onCopyFailed);
  return (
    <>
      <SplitButton
        label={t('tokens.actions.copy')}
        moreLabel={t('tokens.actions.copyMore')}
        color="teal"
        onMain={() => copy(`sk-${tokenKey}`)}
        items={CHAT_APPS.map((app) => ({
          app,
          label: t('tokens.actions.copyLinkFor', { app: t(`tokens.chatApps.${app}`) }),
          onClick: () => copy(link(app)),
        }))}
      />
      <SplitButton
        label={t('tokens.actions.chat')}
        moreLabel={t('tokens.actions.chatMore')}
        color="blue"
        onMain={() => openChat('next-web', link('next-web'))}
        items={CHAT_APPS.map((app) => ({
          app,
          label: t(`tokens.chatApps.${app}`),
          onClick: () => openChat(app, link(app)),
        }))}
      />
    </>
  );
}
