// The journal's entry types live in shared/ so the renderer's history view
// reads the very same shapes; the core keeps importing them from here.
export * from '../../../shared/history/journal-types';
