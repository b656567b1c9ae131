// The only way anything leaves the app for the system browser. HostService
// is given `gate.openExternal` as its opener and calls it from
// openQuestionUrl after its own checks; the gate then checks AGAIN, here in
// main, trusting neither the renderer nor the service:
// 1. consent: the URL must equal, character for character, the link of the
//    URL question the main window just asked to open (ipc.ts arms that
//    consent for the duration of that one request, then withdraws it);
// 2. analyzeUrl must not block it (unparseable, wrong scheme);
// 3. an independent scheme allowlist: https anywhere, http only to this
//    computer (localhost, 127.0.0.0/8, [::1]).
// Warnings that do not block (credentials before "@", punycode, raw IPs,
// length) were shown to the human, who consented anyway: they open.
// What reaches the OS is only the path of a private launcher page that
// forwards to the WHATWG-serialised URL: on Linux, shell.openExternal(url)
// ends in `xdg-open <url>`, readable by every user in /proc/PID/cmdline.
import { checkExternalUrl } from '../../shared/url/external-url';
import type { OpenedLink } from '../core/links/launcher-file';

// The rule itself lives in shared/ so the web shell's and the CLI's opener
// (electron/web/system-opener.ts) apply exactly the same one.
export { checkExternalUrl, MAX_EXTERNAL_URL_LENGTH, type ExternalUrlVerdict } from '../../shared/url/external-url';

/**
 * Hands a URL to the OS (in main: a private launcher page opened with
 * shell.openPath, see app-main.ts; a fake in tests).
 */
export type OsOpener = (url: string) => Promise<OpenedLink | void>;

/** Consent-checked opener for HostService. */
export class OpenExternalGate {
  // One entry per armed consent; an entry is good for one opening and is removed when used or withdrawn.
  private readonly consents = new Set<{ href: string }>();

  constructor(
    private readonly osOpen: OsOpener,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  /**
   * Allow one opening of exactly `href` until the returned function is
   * called. ipc.ts calls this around the main window's openQuestionUrl.
   */
  consent(href: string): () => void {
    const entry = { href };
    this.consents.add(entry);
    return () => void this.consents.delete(entry);
  }

  /** True while `href` has an unused consent. */
  isConsented(href: string): boolean {
    for (const entry of this.consents) if (entry.href === href) return true;
    return false;
  }

  /** The opener given to HostService: refuses unless consented and allowed; the consent is used up. */
  readonly openExternal = async (url: string): Promise<OpenedLink | void> => {
    const entry = typeof url === 'string' ? [...this.consents].find((c) => c.href === url) : undefined;
    if (!entry) {
      this.log(`countersign: refused to open a link the user did not consent to: ${String(url).slice(0, 200)}`);
      throw new Error('refused to open the link: the user did not consent to this exact URL');
    }
    this.consents.delete(entry);
    const verdict = checkExternalUrl(url);
    if (!verdict.ok) {
      this.log(`countersign: refused to open ${url.slice(0, 200)}: ${verdict.reason}`);
      throw new Error(`refused to open the link: ${verdict.reason}`);
    }
    return this.osOpen(verdict.href);
  };
}

/**
 * Opens a launcher page with Electron's shell.openPath, which resolves with an
 * error text instead of rejecting: an empty text is success.
 */
export async function openPathOrFail(shell: { openPath(path: string): Promise<string> }, path: string): Promise<void> {
  const error = await shell.openPath(path);
  if (error) throw new Error(`the system could not open the link: ${error}`);
}
