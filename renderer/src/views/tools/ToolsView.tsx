import { useEffect, useId, useRef, useState } from 'react';
import type { CatalogView } from '../../../../shared/host-api/contract';
import type { RendererStores } from '../../app/stores';
import type { ToolsSelection } from '../../app/views';
import { useT } from '../../i18n/i18n-context';
import { useStore } from '../../state/use-store';
import ViewHeader from '../ViewHeader';
import CatalogTabs from './CatalogTabs';
import ToolCallPanel from './ToolCallPanel';
import { useCatalog } from './use-catalog';

/** Props: the stores, the server and tool picked (kept by the app across views), and how to change them. */
export interface ToolsViewProps {
  stores: Pick<RendererStores, 'api' | 'servers' | 'calls'>;
  selection: ToolsSelection;
  onSelect: (selection: ToolsSelection) => void;
  onOpenServers: () => void;
}

/** A server's tools, prompts and resources, and calling a tool with its arguments drawn as a form. */
export default function ToolsView({ stores, selection, onSelect, onOpenServers }: ToolsViewProps) {
  const t = useT();
  const id = useId();
  const { servers, loaded } = useStore(stores.servers);
  const [reload, setReload] = useState(0);
  const [tab, setTab] = useState('tools');
  const server =
    selection.server && servers.some((s) => s.name === selection.server)
      ? selection.server
      : (servers[0]?.name ?? null);
  const catalog = useCatalog(stores.api, server, reload);
  const status = servers.find((s) => s.name === server)?.status;
  // Set when the human picks a tool from the list, so its form takes focus;
  // a tool kept selected across views does not steal focus on return.
  const picked = useRef<string | null>(null);

  // A server that connects after its catalog failed to load (a reconnect) gets it read again.
  const failed = useRef(false);
  failed.current = catalog.status === 'error';
  useEffect(() => {
    if (status === 'connected' && failed.current) setReload((n) => n + 1);
  }, [status]);

  if (loaded && servers.length === 0) {
    return (
      <div className="view view-tools">
        <ViewHeader title={t('tools.title')} lede={t('tools.lede')} />
        <div className="empty">
          <p className="empty-title">{t('tools.noServers')}</p>
          <button type="button" className="button" onClick={onOpenServers}>
            {t('tools.goToServers')}
          </button>
        </div>
      </div>
    );
  }

  const ready = catalog.status === 'ready' ? catalog.catalog : null;
  const tool = ready?.tools.find((x) => x.name === selection.tool) ?? null;
  return (
    <div className="view view-tools">
      <ViewHeader title={t('tools.title')} lede={t('tools.lede')}>
        <label className="inline-label" htmlFor={`${id}-server`}>
          {t('tools.server')}
        </label>
        <select
          id={`${id}-server`}
          className="input select server-select"
          value={server ?? ''}
          onChange={(e) => onSelect({ server: e.target.value, tool: null })}
        >
          {servers.map((s) => (
            <option key={s.name} value={s.name}>
              {s.name}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button"
          onClick={() => setReload((n) => n + 1)}
          aria-disabled={catalog.status === 'loading' || undefined}
        >
          {t('tools.refresh')}
        </button>
      </ViewHeader>

      {catalog.status === 'loading' && (
        <p className="muted loading" role="status">
          {t('tools.loading', { server: server ?? '' })}
        </p>
      )}
      {catalog.status === 'error' && (
        <p className="banner banner-danger" role="alert">
          {t('tools.loadError', { server: server ?? '', error: catalog.error })}
        </p>
      )}
      {ready && server && (
        <CatalogTabs
          label={t('tools.catalogLabel', { server })}
          active={tab}
          onSelect={setTab}
          tabs={[
            {
              key: 'tools',
              label: t('tools.tab.tools'),
              count: ready.tools.length,
              panel: (
                <div className="tools-layout">
                  <ToolList
                    tools={ready.tools}
                    selected={tool?.name ?? null}
                    onPick={(name) => {
                      picked.current = `${server}/${name}`;
                      onSelect({ server, tool: name });
                    }}
                  />
                  {tool ? (
                    <ToolCallPanel
                      key={`${server}/${tool.name}`}
                      server={server}
                      tool={tool}
                      calls={stores.calls}
                      focusForm={picked.current === `${server}/${tool.name}`}
                      appApi={stores.api}
                    />
                  ) : (
                    <div className="empty empty-panel">
                      <p className="empty-title">{ready.tools.length > 0 ? t('tools.pick') : t('tools.none')}</p>
                      {ready.tools.length > 0 && <p className="empty-hint">{t('tools.pickHint')}</p>}
                    </div>
                  )}
                </div>
              ),
            },
            {
              key: 'prompts',
              label: t('tools.tab.prompts'),
              count: ready.prompts.length,
              panel: <PromptList prompts={ready.prompts} unlisted={ready.unlisted?.prompts} />,
            },
            {
              key: 'resources',
              label: t('tools.tab.resources'),
              count: ready.resources.length,
              panel: <ResourceList resources={ready.resources} unlisted={ready.unlisted?.resources} />,
            },
          ]}
        />
      )}
    </div>
  );
}

function ToolList({
  tools,
  selected,
  onPick,
}: {
  tools: CatalogView['tools'];
  selected: string | null;
  onPick: (name: string) => void;
}) {
  const t = useT();
  if (tools.length === 0) return <p className="muted">{t('tools.none')}</p>;
  return (
    <ul className="tool-list" aria-label={t('tools.tab.tools')}>
      {tools.map((tool) => (
        <li key={tool.name}>
          <button
            type="button"
            className="tool-item"
            aria-current={tool.name === selected ? 'true' : undefined}
            onClick={() => onPick(tool.name)}
          >
            <span className="tool-item-name mono">{tool.name}</span>{' '}
            {(tool.title || tool.description) && (
              <span className="tool-item-text">{tool.title ?? tool.description}</span>
            )}
          </button>
        </li>
      ))}
    </ul>
  );
}

function PromptList({ prompts, unlisted }: { prompts: CatalogView['prompts']; unlisted: string | undefined }) {
  const t = useT();
  if (unlisted !== undefined)
    return <p className="banner banner-warning">{t('tools.promptsFailed', { error: unlisted })}</p>;
  if (prompts.length === 0) return <p className="muted">{t('tools.noPrompts')}</p>;
  return (
    <ul className="catalog-list">
      {prompts.map((p) => (
        <li key={p.name} className="catalog-item">
          <p className="catalog-name mono">{p.name}</p>
          {p.title && <p className="catalog-title">{p.title}</p>}
          {p.description && <p className="catalog-text">{p.description}</p>}
          {p.arguments && p.arguments.length > 0 && (
            <p className="catalog-meta">
              {t('tools.promptArgs')}{' '}
              {p.arguments.map((a, i) => (
                <span key={a.name}>
                  {i > 0 && ', '}
                  <span className="mono">{a.name}</span>
                  {a.required && <span aria-hidden="true">*</span>}
                  {a.required && <span className="visually-hidden"> ({t('form.required')})</span>}
                </span>
              ))}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}

function ResourceList({ resources, unlisted }: { resources: CatalogView['resources']; unlisted: string | undefined }) {
  const t = useT();
  if (unlisted !== undefined)
    return <p className="banner banner-warning">{t('tools.resourcesFailed', { error: unlisted })}</p>;
  if (resources.length === 0) return <p className="muted">{t('tools.noResources')}</p>;
  return (
    <ul className="catalog-list">
      {resources.map((r) => (
        <li key={r.uri} className="catalog-item">
          <p className="catalog-name">{r.title ?? r.name}</p>
          <p className="catalog-meta mono">{r.uri}</p>
          {r.description && <p className="catalog-text">{r.description}</p>}
          {r.mimeType && <p className="catalog-meta">{r.mimeType}</p>}
        </li>
      ))}
    </ul>
  );
}
