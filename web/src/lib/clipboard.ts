import { showSuccess, showWarning } from './toast';

/** Copy text; false when the browser refuses (no permission, insecure page). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Copy a secret shown in a list: a success toast, or a warning and `onRefused` (which puts the
 * value where the user can copy it by hand).
 */
export async function copyOrHandOver(
  text: string,
  messages: { copied: string; refused: string },
  onRefused: (text: string) => void,
): Promise<void> {
  if (await copyText(text)) {
    showSuccess(messages.copied);
  } else {
    showWarning(messages.refused);
    onRefused(text);
  }
}
