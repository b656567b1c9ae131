import { useT } from '../../i18n/i18n-context';
import type { DescribedResult } from './call-result';

/** Props: a described tool result and the test id its box carries. */
export interface ResultPartsProps {
  described: DescribedResult;
  testId: string;
}

/**
 * A finished tool call's result, as the Tools view and the Tasks view both
 * draw it: a tool error marked as such, text as text, the rest as JSON, and
 * protocol metadata folded away. One component so the two views cannot drift.
 */
export default function ResultParts({ described, testId }: ResultPartsProps) {
  const t = useT();
  return (
    <div className="call-result" data-testid={testId}>
      {described.isError && <p className="banner banner-danger">{t('tools.toolError')}</p>}
      {described.parts.length === 0 && <p className="muted">{t('tools.emptyResult')}</p>}
      {described.parts.map((part, i) =>
        part.kind === 'text' ? (
          <pre key={i} className={`result-text${described.isError ? ' result-error' : ''}`} dir="auto">
            {part.text}
          </pre>
        ) : part.extra ? (
          <details key={i} className="result-json result-extra">
            <summary className="result-label">
              {t('tools.resultExtra')} <span className="mono">{part.label}</span>
            </summary>
            <pre className="mono" tabIndex={0}>
              {part.json}
            </pre>
          </details>
        ) : (
          <div key={i} className="result-json">
            <p className="result-label mono">{part.label}</p>
            <pre className="mono" tabIndex={0}>
              {part.json}
            </pre>
          </div>
        ),
      )}
    </div>
  );
}
