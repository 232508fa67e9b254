/**
 * The brand's diamond as an inline SVG icon (`<link rel="icon">` on every page of the app and the
 * API reference), so a browser does not ask for a `/favicon.ico` the service does not have. A
 * `data:` URL, which both pages' Content-Security-Policy allow (`img-src 'self' data:`).
 */
export const FAVICON = "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path fill="#2f5bd3" d="M8 0l8 8-8 8-8-8z"/></svg>',
  );
