import { createContext, useContext } from 'react';
import { monogramOf } from './server-identity';

/** Every server name the view knows, so a badge's monogram is distinct among them. */
export const KnownServersContext = createContext<readonly string[]>([]);

/** Props: the server's configured name and its palette slot. */
export interface ServerBadgeProps {
  server: string;
  colour: number;
}

/** The server's coloured monogram. Decorative: the name is always written next to it. */
export default function ServerBadge({ server, colour }: ServerBadgeProps) {
  const known = useContext(KnownServersContext);
  return (
    <span className="server-badge" data-colour={colour} aria-hidden="true">
      {monogramOf(server, known)}
    </span>
  );
}
