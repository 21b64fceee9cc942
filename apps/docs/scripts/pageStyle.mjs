// The page's own style, added to the rendered HTML: code samples wrap their long lines (URLs, JSON bodies)
// inside the sample panel instead of running past its right edge, where the panel cut them off.
const STYLE = `<style id="collab-docs-style">
[data-testid="right-panel"] pre,
[data-testid="right-panel"] pre code {
  white-space: pre-wrap;
  overflow-wrap: anywhere;
}
</style>`;

/** The page with its own style at the end of its head (after Redoc's, so it wins at equal specificity). */
export function withPageStyle(html) {
  if (!html.includes('</head>')) throw new Error('the page has no </head>');
  return html.replace('</head>', `${STYLE}\n</head>`);
}
