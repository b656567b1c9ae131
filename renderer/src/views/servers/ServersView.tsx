import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { RendererStores } from '../../app/stores';
import { colourOf } from '../../dialogs/server-identity';
import { KnownServersContext } from '../../dialogs/ServerBadge';
import { useT } from '../../i18n/i18n-context';
import { useStore } from '../../state/use-store';
import ViewHeader from '../ViewHeader';
import { ImportButton, ImportReport, type ImportOutcome } from './ImportPanel';
import ServerCard from './ServerCard';
import ServerForm from './ServerForm';
import { emptyServerForm, formFromEntry } from './server-form-model';

/** Props: the stores, and how to jump to a server's tools. */
export interface ServersViewProps {
  stores: Pick<RendererStores, 'servers' | 'directory'>;
  onOpenTools: (server: string) => void;
}

type Editing = { mode: 'add' } | { mode: 'edit'; name: string } | null;

/** The configured servers: their state, add / edit / remove, import from another host, reconnect and mute. */
export default function ServersView({ stores, onOpenTools }: ServersViewProps) {
  const t = useT();
  const { servers, loaded, loadError, fileProblem } = useStore(stores.servers);
  const { names } = useStore(stores.directory);
  const [editing, setEditing] = useState<Editing>(null);
  const muteHintId = useId();
  const [imported, setImported] = useState<ImportOutcome | null>(null);
  const known = useMemo(() => [...names, ...servers.map((s) => s.name)], [names, servers]);
  // Where focus goes when a form closes: the server it was about, or the Add button.
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusTarget === null || editing) return;
    const target =
      focusTarget === ''
        ? addButton.current
        : document.querySelector<HTMLElement>(`.server-card[data-server="${CSS.escape(focusTarget)}"] .server-name`);
    target?.focus();
    setFocusTarget(null);
  }, [focusTarget, editing, servers]);
  const close = (focus: string) => {
    setEditing(null);
    setFocusTarget(focus);
  };

  const editingServer = editing?.mode === 'edit' ? servers.find((s) => s.name === editing.name) : undefined;
  return (
    <div className="view view-servers">
      <ViewHeader title={t('servers.title')} lede={t('servers.lede')}>
        <ImportButton
          onPlan={(text, file) => stores.servers.planImport(text, file)}
          onImport={(text, file, names, inputs) => stores.servers.importFile(text, file, names, inputs)}
          onResult={setImported}
        />
        <button
          ref={addButton}
          type="button"
          className="button button-primary"
          onClick={() => setEditing({ mode: 'add' })}
          disabled={editing?.mode === 'add'}
        >
          {t('servers.add')}
        </button>
      </ViewHeader>

      {imported && <ImportReport outcome={imported} onClose={() => setImported(null)} />}

      {editing?.mode === 'add' && (
        <ServerForm
          initial={emptyServerForm()}
          mode="add"
          onSave={async (name, entry) => {
            await stores.servers.add(name, entry);
            close(name);
          }}
          onCancel={() => close('')}
        />
      )}

      {loadError && (
        <p className="banner banner-danger" role="alert">
          {t('servers.loadError', { error: loadError })}
        </p>
      )}

      {fileProblem && (
        <p className="banner banner-danger" role="alert">
          {t('servers.fileProblem', { error: fileProblem })}
        </p>
      )}

      {loaded && servers.length === 0 && editing?.mode !== 'add' && !loadError && (
        <div className="empty">
          <p className="empty-title">{t('servers.empty')}</p>
          <p className="empty-hint">{t('servers.emptyHint')}</p>
        </div>
      )}

      {servers.length > 0 && (
        <p id={muteHintId} className="mute-hint servers-mute-hint">
          {t('servers.muteHintOnce')}
        </p>
      )}
      <ul className="server-list" aria-label={t('servers.listLabel')}>
        {servers.map((server) =>
          editingServer?.name === server.name ? (
            <li key={server.name} className="server-edit">
              <ServerForm
                initial={formFromEntry(server.name, server.entry)}
                mode="edit"
                onSave={async (name, entry) => {
                  await stores.servers.update(name, entry);
                  close(name);
                }}
                onCancel={() => close(server.name)}
              />
            </li>
          ) : (
            <KnownServersContext.Provider key={server.name} value={known}>
              <ServerCard
                server={server}
                colour={colourOf(server.name, known)}
                muteHintId={muteHintId}
                onEdit={() => setEditing({ mode: 'edit', name: server.name })}
                onOpenTools={() => onOpenTools(server.name)}
                onReconnect={() => stores.servers.reconnect(server.name)}
                onRemove={() => stores.servers.remove(server.name)}
                onMute={(muted) => stores.servers.mute(server.name, muted)}
                onSignIn={(scopes) => stores.servers.signIn(server.name, scopes)}
                onSignOut={() => stores.servers.signOut(server.name)}
              />
            </KnownServersContext.Provider>
          ),
        )}
      </ul>
    </div>
  );
}
