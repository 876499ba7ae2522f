import { NumberInput, Tooltip } from '@mantine/core';
import { useState } from 'react';

interface InlineNumberProps {
  value: number;
  label: string;
  hint: string;
  /**
   * Called on blur or Enter when the text differs from `value`; resolves with the value the
   * server saved, or null when nothing was saved (the box then shows `value` again).
   */
  onCommit: (text: string) => Promise<number | null>;
}

/** A small number box in a table cell that saves when the reader leaves it. */
export function InlineNumber({ value, label, hint, onCommit }: InlineNumberProps) {
  const [text, setText] = useState(String(value));
  const [shown, setShown] = useState(value);
  // The saved value changed (a server answer, a refresh): show it.
  if (shown !== value) {
    setShown(value);
    setText(String(value));
  }
  const commit = async () => {
    if (text.trim() === String(value)) return;
    const saved = await onCommit(text.trim());
    setText(String(saved ?? value));
  };
  return (
    <Tooltip label={hint} withArrow openDelay={300} multiline maw={260}>
      <NumberInput
        size="xs"
        w={76}
        aria-label={label}
        value={text}
        onChange={(next) => setText(String(next))}
        onBlur={() => void commit()}
        onKeyDown={(event) => {
          if (event.key === 'Enter') event.currentTarget.blur();
        }}
        allowDecimal={false}
        hideControls
      />
    </Tooltip>
  );
}
