import { monogram } from './server-identity';

/** Props: the server's configured name and its palette slot. */
export interface ServerBadgeProps {
  server: string;
  colour: number;
}

/** The server's coloured monogram. Decorative: the name is always written next to it. */
export default function ServerBadge({ server, colour }: ServerBadgeProps) {
  return (
    <span className="server-badge" data-colour={colour} aria-hidden="true">
      {monogram(server)}
    </span>
  );
}
