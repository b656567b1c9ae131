// The words of a "question waiting" notification, for the desktop app's system
// notification and the web shell's browser notification alike. By default they
// name the server and the tool, never the question's message or arguments:
// notification centres keep a history, and a server's text in system chrome is
// a spoofing surface. Settings → Notifications can add the message of a single
// question (one line, shortened, in quotes, after the names); never arguments.

/** What a notification may say about one waiting question. */
export interface WaitingQuestion {
  mode: 'form' | 'url';
  /** Configured server name (hostile: from config files the user may have imported). */
  server: string;
  /** Tool, prompt or resource the call was for, when there is one (hostile: the server chose it). */
  tool: string | null;
  /** The question's message, only when the person chose to see it (hostile: the server wrote it). */
  message?: string;
}

/** How much a notification says (the notificationDetail setting). */
export type NoticeDetail = 'names' | 'message';

export type NoticeLanguage = 'en' | 'de';

/** What a notification may say of `question`: server, tool and kind; its message only when `detail` asks for it. */
export function waitingQuestion(
  question: { mode: 'form' | 'url'; message: string; origin: { server: string; name: string | null } },
  detail: NoticeDetail,
): WaitingQuestion {
  return {
    mode: question.mode,
    server: question.origin.server,
    tool: question.origin.name,
    ...(detail === 'message' ? { message: question.message } : {}),
  };
}

/** Hostile names as one short printable line of plain text. */
export function displayName(name: string, max = 60): string {
  const clean = name
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean || '?';
}

/** A message shown in a notification is cut to this many characters. */
const MESSAGE_CHARS = 120;

function distinct(values: string[]): string[] {
  return [...new Set(values)];
}

// At most three names, then "…": a burst from many servers still fits one notification.
function nameList(names: string[], quote: (s: string) => string): string {
  const shown = names.slice(0, 3).map(quote).join(', ');
  return names.length > 3 ? `${shown}, …` : shown;
}

/**
 * One notification for everything that arrived unseen: a single question names
 * its server and tool; a burst is coalesced ("3 questions from "kimai"").
 */
export function noticeFor(waiting: readonly WaitingQuestion[], lang: NoticeLanguage): { title: string; body: string } {
  const quote = lang === 'de' ? (s: string) => `„${s}“` : (s: string) => `"${s}"`;
  const servers = distinct(waiting.map((q) => displayName(q.server)));
  const tools = distinct(waiting.flatMap((q) => (q.tool === null ? [] : [displayName(q.tool, 40)])));
  const n = waiting.length;
  if (n === 1) {
    const q = waiting[0]!;
    const server = quote(servers[0]!);
    const tool = tools[0];
    // The server's words come last, quoted, on a line of their own: they cannot pass for Countersign's.
    const message = q.message !== undefined ? `\n${quote(displayName(q.message, MESSAGE_CHARS))}` : '';
    if (lang === 'de') {
      const what = q.mode === 'url' ? 'bittet Sie, einen Link zu öffnen' : 'bittet um Ihre Angaben';
      return {
        title: 'Countersign: eine Frage wartet',
        body: `${server} ${what}${tool ? ` (Werkzeug ${quote(tool)})` : ''}.${message}`,
      };
    }
    const what = q.mode === 'url' ? 'asks you to open a link' : 'asks for your input';
    return {
      title: 'Countersign: a question is waiting',
      body: `${server} ${what}${tool ? ` (tool ${quote(tool)})` : ''}.${message}`,
    };
  }
  const toolPart = tools.length > 0 && servers.length === 1 ? nameList(tools, quote) : '';
  if (lang === 'de') {
    return {
      title: `Countersign: ${n} Fragen warten`,
      body: `${n} Fragen von ${nameList(servers, quote)}${toolPart ? ` (${toolPart})` : ''}.`,
    };
  }
  return {
    title: `Countersign: ${n} questions are waiting`,
    body: `${n} questions from ${nameList(servers, quote)}${toolPart ? ` (${toolPart})` : ''}.`,
  };
}
