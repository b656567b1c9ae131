// What the host says about itself to every server. Capabilities declare only
// what a human can really answer here: elicitation in form and URL mode, and
// tasks (the host follows them to their end and asks their questions): the
// 2026-07-28 Tasks extension under `extensions`, the 2025-11-25 `tasks`
// capability for initialize (the task wire drops it from modern requests).
// Never sampling or roots — the host has no model to sample and exposes no
// file system, and a server may only ask for what was declared.
import type { ClientCapabilities, Implementation } from '@modelcontextprotocol/client';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/app-bridge';

/**
 * The first protocol revision of the modern era (per-request `_meta`, server/discover, MRTR). The SDK
 * has the same constant but does not export it, so it is written once here.
 */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** Name and version sent as clientInfo (modern _meta) and in initialize. */
export const CLIENT_INFO: Implementation = { name: 'countersign', version: '0.1.0' };

/** The Tasks extension's identifier (per-request client capabilities, server capabilities). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The capabilities declared on every request (modern) or at initialize (legacy). */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  elicitation: { form: {}, url: {} },
  tasks: {},
  extensions: { [TASKS_EXTENSION]: {} },
};

/** The MCP Apps extension's identifier (SEP-1865; the ext-apps server package exports it as EXTENSION_ID). */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';

/**
 * SEP-2672's draft key: on a tools/list entry's `_meta`, the server asks for passkey-verified approvals of that
 * tool; on the call's `_meta`, the evidence travels (Countersign's receipts, docs/passkeys.md).
 */
export const VERIFIED_APPROVAL_META = 'io.modelcontextprotocol/verified-approval';

/**
 * The capabilities of a host that can render MCP Apps (the desktop app's and
 * the web shell's renderer). A front end that cannot show an app (the CLI,
 * the gateway) declares CLIENT_CAPABILITIES: a server then sends its plain
 * result instead of one meant to be read beside an app.
 *
 * `elicitation: {}` (SEP-3118, a draft): this renderer can let a question's
 * app draw its form. Declared with the rest, as the connection's
 * capabilities are fixed when it opens; with Settings → App-drawn questions
 * off the hint is ignored and the same, complete schema is asked in the
 * native form, which the SEP makes every such question answerable by.
 */
export const APP_HOST_CAPABILITIES: ClientCapabilities = {
  ...CLIENT_CAPABILITIES,
  extensions: {
    ...CLIENT_CAPABILITIES.extensions,
    [UI_EXTENSION]: { mimeTypes: [RESOURCE_MIME_TYPE], elicitation: {} },
  },
};

/** The protocol's own `_meta` namespace: the per-request envelope, and keys a server reserves (serverInfo). */
export const MCP_META_PREFIX = 'io.modelcontextprotocol/';

/** The input-request methods this host fulfils; anything else was not declared. */
export const DECLARED_INPUT_METHODS: ReadonlySet<string> = new Set(['elicitation/create']);
