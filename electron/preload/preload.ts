// The sandboxed preload (bundled to dist/electron/preload.cjs): exposes the
// host API as `window.countersign` through contextBridge, and nothing else.
import { contextBridge, ipcRenderer } from 'electron';
import { createHostBridge } from './bridge';

contextBridge.exposeInMainWorld('countersign', createHostBridge(ipcRenderer));
