// The page's links as the browser sees them before any click: hash links (`#/branches`).
//
// Redoc 3 routes by the URL's hash (`/docs#/branches/getbranch`), and the page's script keeps that hash
// across a reload. But `redocly build-docs` prerenders the menu with path-style hrefs (`/branches`), and
// hydration keeps prerendered attributes as they are: a tag link copied, opened in a new tab or followed
// before the script has run pointed at `/branches`, outside /docs, which the server answers 404. The
// router's links carry `data-discover`; their hrefs become the hash links the router itself renders.
const ROUTER_LINK = /href="(\/[^"#?]*)"(\s+data-discover="true")/g;
const DEFINITION = 'const __redoc_definition';

/** The prerendered HTML with the router links' path-style hrefs made hash links; the scripts untouched. */
export function withHashLinks(html) {
  const scriptStart = html.indexOf(DEFINITION);
  const markupEnd = scriptStart === -1 ? html.length : scriptStart;
  const markup = html.slice(0, markupEnd).replace(ROUTER_LINK, (_, path, rest) => `href="#${path}"${rest}`);
  return markup + html.slice(markupEnd);
}

/** The path-style hrefs of router links left in the HTML (none after withHashLinks). */
export function pathStyleLinks(html) {
  const scriptStart = html.indexOf(DEFINITION);
  return [...html.slice(0, scriptStart === -1 ? html.length : scriptStart).matchAll(ROUTER_LINK)].map(
    (match) => match[1],
  );
}
