import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

/** One tab: its key, label, count, and panel. */
export interface CatalogTab {
  key: string;
  label: string;
  count: number;
  panel: ReactNode;
}

/** Props: the tabs, the one shown, and how to switch. */
export interface CatalogTabsProps {
  label: string;
  tabs: readonly CatalogTab[];
  active: string;
  onSelect: (key: string) => void;
}

/** An ARIA tab set (arrow keys, Home and End move between tabs; only the active tab is in the Tab order). */
export default function CatalogTabs({ label, tabs, active, onSelect }: CatalogTabsProps) {
  const id = useId();
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = tabs.findIndex((tab) => tab.key === active);
    const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const tab = tabs[(next + tabs.length) % tabs.length]!;
    onSelect(tab.key);
    list.current?.querySelector<HTMLElement>(`[data-tab="${tab.key}"]`)?.focus();
  };
  const current = tabs.find((tab) => tab.key === active) ?? tabs[0];
  return (
    <div className="tabs">
      <div ref={list} className="tab-list" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.key}
            type="button"
            role="tab"
            id={`${id}-tab-${tab.key}`}
            data-tab={tab.key}
            aria-selected={tab.key === current?.key}
            aria-controls={`${id}-panel`}
            tabIndex={tab.key === current?.key ? 0 : -1}
            className="tab"
            onClick={() => onSelect(tab.key)}
          >
            {tab.label}{' '}
            <span className="tab-count">
              <span className="visually-hidden">(</span>
              {tab.count}
              <span className="visually-hidden">)</span>
            </span>
          </button>
        ))}
      </div>
      {current && (
        <div className="tab-panel" role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${current.key}`}>
          {current.panel}
        </div>
      )}
    </div>
  );
}
