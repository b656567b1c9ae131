import { useId } from 'react';
import type { CatalogView } from '../../../../shared/host-api/contract';
import type { AppPanelProps } from './apps/AppPanel';
import { useT } from '../../i18n/i18n-context';
import type { CallStore } from '../../state/call-store';
import { useStore } from '../../state/use-store';
import CallCard from './CallCard';
import ToolArgsForm from './ToolArgsForm';

/** Props: the server, the tool, and the store its calls go through. */
export interface ToolCallPanelProps {
  server: string;
  tool: CatalogView['tools'][number];
  calls: CallStore;
  /** The human just picked this tool from the list: focus goes to its form. */
  focusForm?: boolean;
  /** The host API an MCP App's frame is served through (the tool must name an app). */
  appApi?: AppPanelProps['api'];
}

/** One tool: what it does, its arguments, the Call button, and its calls so far (newest first). */
export default function ToolCallPanel({ server, tool, calls, focusForm, appApi }: ToolCallPanelProps) {
  const t = useT();
  const id = useId();
  const { calls: all } = useStore(calls);
  const mine = all.filter((c) => c.server === server && c.tool === tool.name);
  const starting = mine.some((c) => c.state === 'starting');
  const finished = mine.some((c) => c.state !== 'running' && c.state !== 'starting');
  return (
    <section className="card tool-panel" aria-labelledby={`${id}-title`}>
      <div className="tool-panel-head">
        <h3 id={`${id}-title`} className="card-title mono">
          {tool.name}
        </h3>
        {tool.title && <p className="tool-title">{tool.title}</p>}
        {tool.description && <p className="tool-description">{tool.description}</p>}
      </div>
      <ToolArgsForm
        key={`${server}/${tool.name}`}
        toolName={tool.name}
        inputSchema={tool.inputSchema}
        starting={starting}
        focusOnMount={focusForm}
        onCall={(args) => void calls.call(server, tool.name, args)}
      />
      {mine.length > 0 && (
        <div className="calls">
          <div className="calls-head">
            <h4 className="calls-title">{t('tools.calls')}</h4>
            {finished && (
              <button
                type="button"
                className="button button-small button-link"
                onClick={() => calls.clearFinished(server, tool.name)}
              >
                {t('tools.clear')}
              </button>
            )}
          </div>
          <ul className="call-list" aria-live="polite">
            {mine.map((c) => (
              <CallCard
                key={c.id}
                call={c}
                onCancel={() => void calls.cancel(c.id)}
                {...(tool.app && appApi ? { appApi } : {})}
              />
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
