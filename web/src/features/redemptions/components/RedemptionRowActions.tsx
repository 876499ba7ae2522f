import { RedemptionStatus } from '@switchyard/contract/roles';
import { useTranslation } from 'react-i18next';
import {
  RowActions,
  RowButton,
  RowCopyButton,
  RowDeleteButton,
  RowEditButton,
} from '../../../components/RowActions';
import { useDeleteRedemption, useSetRedemptionStatus } from '../api/redemption-actions';
import type { RedemptionRow } from '../api/redemptions-list';

interface RedemptionRowActionsProps {
  code: RedemptionRow;
  /** Where the code goes when the clipboard refuses it: the search box, to copy by hand. */
  onCopyFailed: (key: string) => void;
  wrap?: boolean;
}

/** Copy code, delete (confirmed), enable/disable (inactive once used) and edit. */
export function RedemptionRowActions({ code, onCopyFailed, wrap = false }: RedemptionRowActionsProps) {
  const { t } = useTranslation();
  const setStatus = useSetRedemptionStatus();
  const remove = useDeleteRedemption();
  const pending = setStatus.isPending || remove.isPending;
  const unused = code.status === RedemptionStatus.unused;

  return (
    <RowActions wrap={wrap}>
      <RowCopyButton
        label={t('redemptions.actions.copy')}
        text={code.key}
        messages={{ copied: t('redemptions.copied'), refused: t('redemptions.copyFailed') }}
        onCopyFailed={onCopyFailed}
      />
      <RowDeleteButton
        disabled={pending}
        label={t('redemptions.actions.delete')}
        confirmLabel={t('redemptions.actions.confirmDelete')}
        onConfirm={() => remove.mutate(code.id)}
      />
      <RowButton
        label={unused ? t('redemptions.actions.disable') : t('redemptions.actions.enable')}
        disabled={pending || code.status === RedemptionStatus.used}
        onClick={() => setStatus.mutate({ id: code.id, status: unused ? 2 : 1 })}
      />
      <RowEditButton label={t('redemptions.actions.edit')} to={`/redemption/edit/${code.id}`} />
    </RowActions>
  );
}
