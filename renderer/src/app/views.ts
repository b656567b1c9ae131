// The app's views, in sidebar order.

/** A view of the app frame. */
export type ViewName = 'servers' | 'tools' | 'history' | 'tasks' | 'settings';

/** Every view, in the order the sidebar lists them. */
export const VIEWS: readonly ViewName[] = ['servers', 'tools', 'history', 'tasks', 'settings'];

/** Where the Tools view stands: the server and tool picked. */
export interface ToolsSelection {
  server: string | null;
  tool: string | null;
}
