import { Notifications } from '@mantine/notifications';

/** Mantine's toast container with the console's placement; a chunk of its own (see ToastLayer). */
export default function ToastContainer() {
  return (
    <Notifications
      position="bottom-right"
      limit={5}
      zIndex={1000}
      classNames={{ root: 'toast-layer', notification: 'toast' }}
    />
  );
}
