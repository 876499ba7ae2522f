import { Button, Group } from '@mantine/core';
import { RedemptionStatus } from '@switchyard/contract/roles';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { copyOrHandOver } from '../../../lib/clipboard';
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

  const copyCode = () =>
    copyOrHandOver(
      code.key,
      { copied: t('redemptions.copied'), refused: t('redemptions.copyFailed') },
      onCopyFailed,
    );

  return (
    <Group gap={6} wrap={wrap ? 'wrap' : 'nowrap'}>
      <Button size="compact-sm" color="teal" onClick={() => void copyCode()}>
        {t('redemptions.actions.copy')}
      </Button>
      <ConfirmButton
        size="compact-sm"
        color="red"
        variant="light"
        disabled={pending}
        label={t('redemptions.actions.delete')}
        confirmLabel={t('redemptions.actions.confirmDelete')}
        onConfirm={() => remove.mutate(code.id)}
      />
      <Button
        size="compact-sm"
        color="gray"
        variant="light"
        disabled={pending || code.status === RedemptionStatus.used}
        onClick={() => setStatus.mutate({ id: code.id, status: unused ? 2 : 1 })}
      >
        {unused ? t('redemptions.actions.disable') : t('redemptions.actions.enable')}
      </Button>
      <Button size="compact-sm" variant="default" component={Link} to={`/redemption/edit/${code.id}`}>
        {t('redemptions.actions.edit')}
      </Button>
    </Group>
  );
}
