import { TokenStatus } from '@switchyard/contract/roles';
import { useTranslation } from 'react-i18next';
import { RowActions, RowButton, RowDeleteButton, RowEditButton } from '../../../components/RowActions';
import { useDeleteToken, useSetTokenStatus } from '../api/token-actions';
import type { TokenRow } from '../api/tokens-list';
import { TokenChatActions } from './TokenChatActions';
import { tokenName } from './token-labels';

interface TokenRowActionsProps {
  token: TokenRow;
  /** Where the key goes when the clipboard refuses it: the search box, to copy by hand. */
  onCopyFailed: (key: string) => void;
  wrap?: boolean;
}

/** Copy (key or chat-app link), chat, delete (confirmed), enable/disable (status only, 1 ↔ 2) and edit. */
export function TokenRowActions({ token, onCopyFailed, wrap = false }: TokenRowActionsProps) {
  const { t } = useTranslation();
  const setStatus = useSetTokenStatus();
  const remove = useDeleteToken();
  const pending = setStatus.isPending || remove.isPending;
  const enabled = token.status === TokenStatus.enabled;

  return (
    <RowActions wrap={wrap}>
      <TokenChatActions tokenKey={token.key} onCopyFailed={onCopyFailed} />
      <RowDeleteButton
        disabled={pending}
        label={t('tokens.actions.delete')}
        confirmLabel={t('tokens.actions.deleteToken', { name: tokenName(token, t) })}
        onConfirm={() => remove.mutate(token.id)}
      />
      <RowButton
        label={enabled ? t('tokens.actions.disable') : t('tokens.actions.enable')}
        disabled={pending}
        onClick={() => setStatus.mutate({ id: token.id, status: enabled ? 2 : 1 })}
      />
      <RowEditButton label={t('tokens.actions.edit')} to={`/token/edit/${token.id}`} />
    </RowActions>
  );
}
