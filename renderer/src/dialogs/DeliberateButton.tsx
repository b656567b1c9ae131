import { useEffect, useRef, useState, type ButtonHTMLAttributes, type KeyboardEvent, type MouseEvent } from 'react';
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
 * Until it is armed it reads and looks not yet active (aria-disabled), so an
 * early click is visibly refused rather than silently swallowed.
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
  const [armed, setArmed] = useState(armDelay <= 0);
  useEffect(() => {
    if (armed) return;
    // Only the short arming delay: it ends by itself and never decides anything.
    const timer = setTimeout(() => setArmed(true), Math.max(0, armedAt.current - performance.now()));
    return () => clearTimeout(timer);
  }, [armed]);
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
    <button
      {...rest}
      type={type}
      aria-disabled={busy || !armed || undefined}
      data-arming={!armed || undefined}
      onKeyDown={handleKeyDown}
      onClick={handleClick}
    />
  );
}
