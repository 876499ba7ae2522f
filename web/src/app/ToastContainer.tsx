import { Notifications } from '@mantine/notifications';
import { TOAST_LIMIT, TOAST_POSITION } from '../lib/toast';

/** Mantine's toast container with the console's placement; a chunk of its own (see ToastLayer). */
export default function ToastContainer() {
  return (
    <Notifications
      position={TOAST_POSITION.wide}
      limit={TOAST_LIMIT}
      zIndex={1000}
      classNames={{ root: 'toast-layer', notification: 'toast' }}
    />
  );
}
