// The page loads nothing from other hosts. `redocly build-docs --inlineBundle` embeds Redoc's scripts and
// the configuration turns Redoc's telemetry off, but the sidebar's "API docs by Redocly" attribution still
// shows Redocly's logo from their CDN in every reader's browser. The logo's URLs in the embedded script
// become a same-origin image (an inline SVG of the word "Redocly"), so the attribution stays and no request
// leaves the reader's browser for it.
const LOGO_URL = /https:\/\/cdn\.redoc\.ly\/redoc\/logo[\w-]*\.svg/g;
const LOGO =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="16" viewBox="0 0 64 16">' +
      '<text x="0" y="13" font-family="sans-serif" font-size="13" fill="#ef4123">Redocly</text></svg>',
  );

/** The page with Redocly's CDN logo replaced by an inline image; `replaced` counts the URLs replaced. */
export function withLocalLogo(html) {
  let replaced = 0;
  const page = html.replace(LOGO_URL, () => {
    replaced += 1;
    return LOGO;
  });
  return { html: page, replaced };
}

/** Other hosts the page's script or markup would fetch from: CDN, telemetry and font addresses left in it. */
export function externalFetches(html) {
  const known = [LOGO_URL, /https:\/\/fonts\.(googleapis|gstatic)\.com[^\s"'`)]*/g];
  return known.flatMap((pattern) => [...html.matchAll(pattern)].map((match) => match[0]));
}

/** Whether the page's Redoc options turn its telemetry off (redocly.yaml's `telemetry: off`). */
export function telemetryOff(html) {
  return /__redoc_options = \{[^\n]*"disableTelemetry":true/.test(html);
}
