import { useTranslation } from 'react-i18next';
import { WeChatCodeModal, type WeChatModalProps } from '../../../components/WeChatCodeModal';
import { showSuccess } from '../../../lib/toast';
import { useBindWeChat } from '../api/personal';

/** The official account's QR code and the code it sends (valid three minutes). */
export function WeChatBindModal({ opened, onClose, qrCode }: WeChatModalProps) {
  const { t } = useTranslation();
  const bind = useBindWeChat();

  const bindCode = (code: string, clear: () => void) =>
    bind.mutate(code, {
      onSuccess: () => {
        showSuccess(t('settings.bindings.wechatBound'));
        clear();
        onClose();
      },
    });

  return (
    <WeChatCodeModal
      opened={opened}
      onClose={onClose}
      qrCode={qrCode}
      texts={{
        title: t('settings.bindings.wechatTitle'),
        qrAlt: t('settings.bindings.qrAlt'),
        tip: t('settings.bindings.wechatTip'),
        code: t('settings.bindings.code'),
        submit: t('settings.bindings.bind'),
      }}
      onCode={bindCode}
      pending={bind.isPending}
      size="sm"
      name="wechat_code"
      needsCode
    />
  );
}
