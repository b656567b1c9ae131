import { useId, useRef, useState } from 'react';
import type { UrlAnalysis, UrlWarning } from '../../../shared/elicitation/types';
import { useT } from '../i18n/i18n-context';
import type { Translate } from '../i18n/translate';
import { copyText, splitHost, unicodeDomain, urlParts } from './url-parts';

/** Props: the host's analysis of the link; `allowCopy` is off for links that must never be used. */
export interface UrlDisplayProps {
  analysis: UrlAnalysis;
  allowCopy: boolean;
  /** The label above the host (default "Website"; the sign-in dialog names the authorization server). */
  siteLabel?: string;
}

/** The warnings that stop a link (red); every other one only warns (amber). */
const BLOCKING = new Set<UrlWarning['code']>(['blocked-scheme', 'unparseable', 'http-not-loopback']);

/** Ways of saying "this name imitates another": one problem, so one warning, the most specific. */
const IMITATION: readonly UrlWarning['code'][] = ['confusable', 'mixed-script', 'punycode'];

/** One warning per problem: of the imitation warnings only the most specific is kept. */
export function distinctWarnings(warnings: readonly UrlWarning[]): UrlWarning[] {
  const kept = IMITATION.find((code) => warnings.some((w) => w.code === code));
  return warnings.filter((w) => !IMITATION.includes(w.code) || w.code === kept);
}

function warningText(w: UrlWarning, analysis: UrlAnalysis, t: Translate): string {
  return t(`warn.${w.code}`, { scheme: `${analysis.scheme || '?'}:` });
}

/** The host's other spelling under the headline: its xn-- form, or the Unicode form a look-alike imitates. */
function OtherSpelling(props: { className: string; label: string; testId: string; children: string }) {
  return (
    <p className={props.className} dir="ltr">
      {props.label}{' '}
      <span className="mono" data-testid={props.testId}>
        {props.children}
      </span>
    </p>
  );
}

/**
 * The link, shown in full and never as a link: the site (Unicode, registrable
 * domain strongest, plus its xn-- spelling), the whole URL with its parts told
 * apart, the analysis warnings, and a copy button.
 */
export default function UrlDisplay({ analysis, allowCopy, siteLabel }: UrlDisplayProps) {
  const t = useT();
  const fullId = useId();
  const fullRef = useRef<HTMLDivElement>(null);
  const [copyNote, setCopyNote] = useState<string | null>(null);
  // A look-alike host is headlined in its ASCII (xn--) form, the one that
  // cannot pass for another name; its Unicode form follows, marked as such.
  const lookalike = analysis.lookalike === true && analysis.host !== '';
  const host = lookalike
    ? splitHost(analysis.host, analysis.registrableDomain)
    : splitHost(analysis.hostUnicode, unicodeDomain(analysis));
  const idn = analysis.host !== '' && analysis.host !== analysis.hostUnicode;
  const warnings = distinctWarnings(analysis.warnings);

  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(copyText(analysis));
      setCopyNote(t('url.copied'));
    } catch {
      // No clipboard access: select the link so the usual shortcut copies it.
      const el = fullRef.current;
      const selection = window.getSelection();
      if (el && selection) {
        el.focus(); // first: focusing may move the caret and so clear a selection made before
        selection.selectAllChildren(el);
      }
      setCopyNote(t('url.selected'));
    }
  };

  return (
    <div className="url">
      {analysis.hostUnicode && (
        <div className="url-site">
          <p className="url-label">{lookalike ? t('url.lookalikeHeadline') : (siteLabel ?? t('url.site'))}</p>
          <p className="url-host" dir="ltr" data-testid="url-host" data-lookalike={lookalike || undefined}>
            {host.sub && <span className="url-subdomain">{host.sub}</span>}
            <strong className="url-domain">{host.domain}</strong>
          </p>
          {lookalike ? (
            <OtherSpelling className="url-ascii url-lookalike" label={t('url.looksLike')} testId="url-unicode">
              {analysis.hostUnicode}
            </OtherSpelling>
          ) : (
            idn && (
              <OtherSpelling className="url-ascii" label={t('url.ascii')} testId="url-ascii">
                {analysis.host}
              </OtherSpelling>
            )
          )}
        </div>
      )}
      <p className="url-label" id={fullId}>
        {t('url.fullLink')}
      </p>
      <div className="url-full-row">
        <div
          ref={fullRef}
          className="url-full mono"
          dir="ltr"
          tabIndex={0}
          role="group"
          aria-labelledby={fullId}
          data-testid="url-full"
        >
          {urlParts(analysis).map((p, i) => (
            <span key={i} className={`url-part url-${p.kind}`}>
              {p.text}
            </span>
          ))}
        </div>
        {allowCopy && (
          <button type="button" className="button button-small" onClick={() => void copy()}>
            {t('action.copy')}
          </button>
        )}
      </div>
      <p className="url-copy-note" role="status">
        {copyNote}
      </p>
      {warnings.length > 0 && (
        <ul className="url-warnings" aria-label={t('url.warningsLabel')}>
          {warnings.map((w, i) => (
            <li
              key={`${w.code}-${i}`}
              className={`url-warning url-warning-${w.code}${BLOCKING.has(w.code) ? ' url-warning-block' : ''}`}
              data-code={w.code}
            >
              {warningText(w, analysis, t)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
