/** Absolute path of the rendered reference page (dist/index.html). */
export declare const docsHtmlPath: string;
