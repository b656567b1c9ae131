import { createContext, useContext } from 'react';
import type { Question } from '../../../shared/elicitation/types';
import { useT } from '../i18n/i18n-context';

/**
 * The offer to ask for a passkey on destructive tools, shown in the dialog of the first destructive question while
 * Settings → Passkeys is off and the offer was not turned down. The app provides it from the settings; absent
 * (tests, the harness): no offer.
 */
export interface PasskeySuggestion {
  /** Ask for a passkey on the tools a server marks destructive (from this question's Accept on). */
  turnOn: () => void;
  /** Not now: the offer is not made again (Settings → Passkeys still has it). */
  dismiss: () => void;
}

export const PasskeySuggestionContext = createContext<PasskeySuggestion | null>(null);

/** The offer under a destructive question's message, or nothing. */
export function PasskeyOffer({ question }: { question: Question }) {
  const offer = useContext(PasskeySuggestionContext);
  const t = useT();
  if (!offer || !question.origin.toolHints?.destructive || question.origin.passkeyStep) return null;
  return (
    <div className="banner banner-info passkey-offer" data-testid="passkey-offer">
      <p>{t('passkeys.offer')}</p>
      <div className="passkey-offer-actions">
        <button type="button" className="button button-small" onClick={offer.turnOn}>
          {t('passkeys.offerOn')}
        </button>
        <button type="button" className="button button-small" onClick={offer.dismiss}>
          {t('passkeys.offerNotNow')}
        </button>
      </div>
    </div>
  );
}
