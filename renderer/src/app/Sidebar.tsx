import { memo, type KeyboardEvent } from 'react';
import { useT } from '../i18n/i18n-context';
import NavIcon from './NavIcon';
import { VIEWS, type ViewName } from './views';

/** Props: the view shown, how to switch, and how many questions wait. */
export interface SidebarProps {
  view: ViewName;
  onNavigate: (view: ViewName) => void;
  waiting: number;
}

/**
 * The calm left column: the app's name, one button per view (the current one
 * marked with aria-current; Up and Down move between them), and at the bottom
 * whether questions wait. Memoised: a question's arrival re-renders the app frame around it, and the sidebar only
 * once its count changes, a render later (App.tsx).
 */
function Sidebar({ view, onNavigate, waiting }: SidebarProps) {
  const t = useT();
  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const buttons = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('button')];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    e.preventDefault();
    buttons[(at + (e.key === 'ArrowDown' ? 1 : buttons.length - 1)) % buttons.length]?.focus();
  };
  return (
    <aside className="sidebar">
      <div className="brand">
        <svg className="brand-mark" width="22" height="22" viewBox="0 0 22 22" aria-hidden="true" focusable="false">
          <rect x="1" y="1" width="20" height="20" rx="6" fill="currentColor" />
          <path
            d="M6.5 11.3l3 3 6-6.6"
            fill="none"
            stroke="var(--on-accent)"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        <h1 className="app-title">{t('app.title')}</h1>
      </div>
      <nav className="nav" aria-label={t('nav.label')}>
        <ul className="nav-list" onKeyDown={onKeyDown}>
          {VIEWS.map((v) => (
            <li key={v}>
              <button
                type="button"
                className="nav-item"
                aria-current={v === view ? 'page' : undefined}
                onClick={() => onNavigate(v)}
              >
                <NavIcon view={v} />
                <span>{t(`nav.${v}`)}</span>
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div className="sidebar-status" role="status">
        {waiting > 0 ? (
          <p className="waiting">
            <span className="waiting-badge" aria-hidden="true">
              {waiting}
            </span>
            <span className="visually-hidden">{waiting} </span>
            {t(waiting === 1 ? 'nav.waiting.one' : 'nav.waiting.other')}
          </p>
        ) : (
          <>
            <p className="idle-title">{t('app.idle')}</p>
            <p className="idle-hint">{t('app.idleHint')}</p>
          </>
        )}
      </div>
    </aside>
  );
}

export default memo(Sidebar);
