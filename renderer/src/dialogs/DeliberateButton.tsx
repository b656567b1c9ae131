import { useRef, type ButtonHTMLAttributes, type KeyboardEvent, type MouseEvent } from 'react';
import { useArmDelay } from './dialog-timing';

/** Props: a normal button, plus `onActivate` called only for a deliberate activation. */
export interface DeliberateButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick'> {
  onActivate: () => void;
  /** Looks and reads as disabled (aria-disabled) but keeps focus, e.g. while an answer is sent. */
  busy?: boolean;
}

/**
 * A button that answers a question. It ignores activation in the first moments
 * after it appears (a double click or a held Enter meant for something else)
 * and ignores auto-repeated keys, so only a fresh click or key press on it counts.
 */
export default function DeliberateButton({
  onActivate,
  busy = false,
  onKeyDown,
  type = 'button',
  ...rest
}: DeliberateButtonProps) {
  const armDelay = useArmDelay();
  const armedAt = useRef(performance.now() + armDelay);
  const handleKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.repeat && (e.key === 'Enter' || e.key === ' ')) e.preventDefault();
    onKeyDown?.(e);
  };
  const handleClick = (e: MouseEvent<HTMLButtonElement>) => {
    if (busy || performance.now() < armedAt.current) {
      e.preventDefault();
      return;
    }
    onActivate();
  };
  return (
    <button {...rest} type={type} aria-disabled={busy || undefined} onKeyDown={handleKeyDown} onClick={handleClick} />
  );
}
