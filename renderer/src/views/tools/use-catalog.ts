// Loads a server's tools, prompts and resources when the server changes or a
// reload is asked for; an answer for a server no longer shown is dropped.
import { useEffect, useState } from 'react';
import type { CatalogView, HostApi } from '../../../../shared/host-api/contract';
import { errorText } from '../../state/store';

/** The catalog of one server as it loads. */
export type CatalogState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; catalog: CatalogView }
  | { status: 'error'; error: string };

/** The catalog of `server` (null: none picked); bump `reload` to fetch again. */
export function useCatalog(api: Pick<HostApi, 'listCatalog'>, server: string | null, reload: number): CatalogState {
  const [state, setState] = useState<CatalogState>({ status: 'idle' });
  useEffect(() => {
    if (!server) {
      setState({ status: 'idle' });
      return;
    }
    let current = true;
    setState({ status: 'loading' });
    api.listCatalog({ server }).then(
      (catalog) => current && setState({ status: 'ready', catalog }),
      (err: unknown) => current && setState({ status: 'error', error: errorText(err) }),
    );
    return () => {
      current = false;
    };
  }, [api, server, reload]);
  return state;
}
