import type { ReactNode } from 'react';

/** Props: the view's title and one-line explanation, and its main actions. */
export interface ViewHeaderProps {
  title: string;
  lede?: string;
  children?: ReactNode;
}

/** The top of every view: title (the page's h2), a quiet sentence about it, actions on the right. */
export default function ViewHeader({ title, lede, children }: ViewHeaderProps) {
  return (
    <header className="view-header">
      <div className="view-heading">
        <h2 className="view-title">{title}</h2>
        {lede && <p className="view-lede">{lede}</p>}
      </div>
      {children && <div className="view-actions">{children}</div>}
    </header>
  );
}
