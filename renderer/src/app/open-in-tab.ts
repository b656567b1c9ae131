// Opens a link the host checked and handed back (the web shell's "Open in
// browser"): a new tab of the person's own browser, from their click (the
// round trip to the host stays within the click's user activation). noopener:
// the opened page gets no handle on this one; noreferrer: it is not told where
// the person came from. The web shell's token is in this page's fragment,
// which no Referer carries anyway.

/** Opens `href` in a new tab, detached from this page. */
export function openInTab(href: string): void {
  window.open(href, '_blank', 'noopener,noreferrer');
}
