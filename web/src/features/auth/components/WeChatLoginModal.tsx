import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { WeChatCodeModal, type WeChatModalProps } from '../../../components/WeChatCodeModal';
import { saveSession } from '../../../lib/session';
import { showSuccess } from '../../../lib/toast';
import { useWeChatLogin } from '../api/oauth';

/** QR code of the official account and the code it sends (valid three minutes). */
export function WeChatLoginModal({ opened, onClose, qrCode }: WeChatModalProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const login = useWeChatLogin();

  const logIn = (code: string) =>
    login.mutate(code, {
      onSuccess: (result) => {
        onClose();
        if ('twoFactor' in result) {
          navigate('/login', { state: { twoFactor: true, passkey: result.passkey } });
          return;
        }
        saveSession(result.user);
        navigate('/');
        showSuccess(t('login.success'));
      },
    });

  return (
    <WeChatCodeModal
      opened={opened}
      onClose={onClose}
      qrCode={qrCode}
      texts={{
        title: t('wechat.title'),
        qrAlt: t('wechat.qrAlt'),
        tip: t('wechat.scanTip'),
        code: t('wechat.code'),
        submit: t('wechat.submit'),
      }}
      onCode={logIn}
      pending={login.isPending}
    />
  );
}
