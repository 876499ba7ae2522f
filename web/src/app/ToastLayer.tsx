import { useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

// Mantine's toast container (and its transitions) loads with the first toast, not with every page.
const ToastContainer = lazy(() => import('./ToastContainer'));

/** Where toasts show: mounted with the first one (which shows once the chunk is in) and kept from then on. */
export function ToastLayer() {
  const { notifications, queue } = useNotifications();
  const [mounted, setMounted] = useState(false);
  if (!mounted && notifications.length + queue.length > 0) setMounted(true);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <ToastContainer />
    </Suspense>
  );
}
