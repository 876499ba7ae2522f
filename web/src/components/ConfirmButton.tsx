import { Button, type ButtonProps, Popover } from '@mantine/core';
import { useState } from 'react';

interface ConfirmButtonProps extends ButtonProps {
  label: string;
  confirmLabel: string;
  onConfirm: () => void;
}

/** A button that asks once more in a popup before a destructive action. */
export function ConfirmButton({ label, confirmLabel, onConfirm, ...buttonProps }: ConfirmButtonProps) {
  const [opened, setOpened] = useState(false);
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom" withArrow shadow="md">
      <Popover.Target>
        <Button {...buttonProps} onClick={() => setOpened((value) => !value)}>
          {label}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Button
          color="red"
          size="xs"
          onClick={() => {
            setOpened(false);
            onConfirm();
          }}
        >
          {confirmLabel}
        </Button>
      </Popover.Dropdown>
    </Popover>
  );
}
