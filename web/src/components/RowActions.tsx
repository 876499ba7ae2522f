import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { copyOrHandOver } from '../lib/clipboard';
import { ConfirmButton } from './ConfirmButton';

/** The buttons of one list row, side by side; `wrap` lets them break lines on a card. */
export function RowActions({ wrap = false, children }: { wrap?: boolean; children: ReactNode }) {
  return (
    <Group gap={6} wrap={wrap ? 'wrap' : 'nowrap'}>
      {children}
    </Group>
  );
}

interface RowCopyButtonProps {
  label: string;
  text: string;
  messages: { copied: string; refused: string };
  /** Where the text goes when the clipboard refuses it: the search box, to copy by hand. */
  onCopyFailed: (text: string) => void;
}

/** Copies a row's secret (key, code), handing it over when the clipboard refuses. */
export function RowCopyButton({ label, text, messages, onCopyFailed }: RowCopyButtonProps) {
  return (
    <Button size="compact-sm" color="teal" onClick={() => void copyOrHandOver(text, messages, onCopyFailed)}>
      {label}
    </Button>
  );
}

interface RowButtonProps {
  label: string;
  disabled: boolean;
  onClick: () => void;
  color?: string;
}

/** A light row button; gray unless given a colour. */
export function RowButton({ label, disabled, onClick, color = 'gray' }: RowButtonProps) {
  return (
    <Button size="compact-sm" color={color} variant="light" disabled={disabled} onClick={onClick}>
      {label}
    </Button>
  );
}

interface RowDeleteButtonProps {
  label: string;
  confirmLabel: string;
  disabled: boolean;
  onConfirm: () => void;
}

/** Delete, asked once more in a popup. */
export function RowDeleteButton({ label, confirmLabel, disabled, onConfirm }: RowDeleteButtonProps) {
  return (
    <ConfirmButton
      size="compact-sm"
      color="red"
      variant="light"
      disabled={disabled}
      label={label}
      confirmLabel={confirmLabel}
      onConfirm={onConfirm}
    />
  );
}

/** The link to a row's edit page. */
export function RowEditButton({ label, to }: { label: string; to: string }) {
  return (
    <Button size="compact-sm" variant="default" component={Link} to={to}>
      {label}
    </Button>
  );
}
