// How long after a dialog appears before its answer buttons react. A click or
// a held key meant for the previous dialog (or anything else on screen) must
// not answer a question that just slid into its place.
import { createContext, useContext } from 'react';

/** Default delay before answer buttons are armed, in milliseconds. */
export const DEFAULT_ARM_DELAY_MS = 400;

/** The arm delay for dialogs below; tests and the harness may shorten it. */
export const ArmDelayContext = createContext(DEFAULT_ARM_DELAY_MS);

/** The arm delay in force. */
export function useArmDelay(): number {
  return useContext(ArmDelayContext);
}
