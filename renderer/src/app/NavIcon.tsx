import type { ViewName } from './views';

// Simple line icons, drawn in the text colour; decorative (the label is always beside them).
const PATHS: Record<ViewName, string> = {
  servers: 'M3 4.5h12v3.5H3zM3 10h12v3.5H3zM5.5 6.25h.01M5.5 11.75h.01',
  tools:
    'M11.8 2.7a3.6 3.6 0 0 0-4.5 4.6L2.9 11.7a1.5 1.5 0 0 0 2.1 2.1' +
    'l4.4-4.4a3.6 3.6 0 0 0 4.6-4.5l-2.1 2.1-1.8-.3-.3-1.8z',
  history: 'M9 3.2a5.8 5.8 0 1 1-5.6 4.3M3 3.5v3.6h3.6M9 6v3.3l2.2 1.4',
  tasks: 'M3 4.5h2M3 9h2M3 13.5h2M7.5 4.5h7.5M7.5 9h7.5M7.5 13.5h4.5',
  settings: 'M3 5h6M12 5h3M3 13h3M9 13h6M10.5 3.5v3M7.5 11.5v3',
};

/** The icon of a sidebar entry. */
export default function NavIcon({ view }: { view: ViewName }) {
  return (
    <svg className="nav-icon" width="18" height="18" viewBox="0 0 18 18" aria-hidden="true" focusable="false">
      <path
        d={PATHS[view]}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
