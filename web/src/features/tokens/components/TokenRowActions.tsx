import { Button, Group } from '@mantine/core';
import { TokenStatus } from '@switchyard/contract/roles';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { copyOrHandOver } from '../../../lib/clipboard';
import { useDeleteToken, useSetTokenStatus } from '../api/token-actions';
import type { TokenRow } from '../api/tokens-list';
import { tokenName } from './token-labels';

interface TokenRowActionsProps {
  token: TokenRow;
  /** Where the key goes when the clipboard refuses it: the search box, to copy by hand. */
  onCopyFailed: (key: string) => void;
  wrap?: boolean;
}

/** Copy key, delete (confirmed), enable/disable (status only, 1 ↔ 2) and edit. */
export function TokenRowActions({ token, onCopyFailed, wrap = false }: TokenRowActionsProps) {
  const { t } = useTranslation();
  const setStatus = useSetTokenStatus();
  const remove = useDeleteToken();
  const pending = setStatus.isPending || remove.isPending;
  const enabled = token.status === TokenStatus.enabled;

  const copyKey = () =>
    copyOrHandOver(
      `sk-${token.key}`,
      { copied: t('tokens.copied'), refused: t('tokens.copyFailed') },
      onCopyFailed,
    );

  return (
    <Group gap={6} wrap={wrap ? 'wrap' : 'nowrap'}>
      <Button size="compact-sm" color="teal" onClick={() => void copyKey()}>
        {t('tokens.actions.copy')}
      </Button>
      <ConfirmButton
        size="compact-sm"
        color="red"
        variant="light"
        disabled={pending}
        label={t('tokens.actions.delete')}
        confirmLabel={t('tokens.actions.deleteToken', { name: tokenName(token, t) })}
        onConfirm={() => remove.mutate(token.id)}
      />
      <Button
        size="compact-sm"
        color="gray"
        variant="light"
        disabled={pending}
        onClick={() => setStatus.mutate({ id: token.id, status: enabled ? 2 : 1 })}
      >
        {enabled ? t('tokens.actions.disable') : t('tokens.actions.enable')}
      </Button>
      <Button size="compact-sm" variant="default" component={Link} to={`/token/edit/${token.id}`}>
        {t('tokens.actions.edit')}
      </Button>
    </Group>
  );
}
