// The languages of a repository, roughly as GitLab's linguist detects them: each file's language from its
// name, weighted by its size in bytes; only programming and markup languages count (prose such as Markdown
// and data such as JSON or YAML do not), nor do vendored and documentation files. Shares are percentages
// with two decimals that add up to exactly 100. Pure: the service lists the files.

/** Languages by file extension (lower case, without the dot). */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  ts: 'TypeScript',
  tsx: 'TypeScript',
  mts: 'TypeScript',
  cts: 'TypeScript',
  js: 'JavaScript',
  jsx: 'JavaScript',
  mjs: 'JavaScript',
  cjs: 'JavaScript',
  vue: 'Vue',
  svelte: 'Svelte',
  html: 'HTML',
  htm: 'HTML',
  css: 'CSS',
  scss: 'SCSS',
  sass: 'Sass',
  less: 'Less',
  rb: 'Ruby',
  erb: 'HTML+ERB',
  py: 'Python',
  go: 'Go',
  rs: 'Rust',
  java: 'Java',
  kt: 'Kotlin',
  kts: 'Kotlin',
  scala: 'Scala',
  groovy: 'Groovy',
  c: 'C',
  h: 'C',
  cc: 'C++',
  cpp: 'C++',
  cxx: 'C++',
  hpp: 'C++',
  hh: 'C++',
  cs: 'C#',
  fs: 'F#',
  swift: 'Swift',
  m: 'Objective-C',
  mm: 'Objective-C++',
  php: 'PHP',
  pl: 'Perl',
  pm: 'Perl',
  sh: 'Shell',
  bash: 'Shell',
  zsh: 'Shell',
  ps1: 'PowerShell',
  lua: 'Lua',
  r: 'R',
  jl: 'Julia',
  ex: 'Elixir',
  exs: 'Elixir',
  erl: 'Erlang',
  hs: 'Haskell',
  clj: 'Clojure',
  dart: 'Dart',
  sql: 'PLpgSQL',
  tf: 'HCL',
  hcl: 'HCL',
  zig: 'Zig',
  nim: 'Nim',
  ml: 'OCaml',
  elm: 'Elm',
  vb: 'Visual Basic .NET',
  asm: 'Assembly',
  s: 'Assembly',
  tex: 'TeX',
  mk: 'Makefile',
  cmake: 'CMake',
};

/** Languages by whole file name, for files without a telling extension. */
const BY_NAME: Readonly<Record<string, string>> = {
  makefile: 'Makefile',
  gnumakefile: 'Makefile',
  dockerfile: 'Dockerfile',
  rakefile: 'Ruby',
  gemfile: 'Ruby',
  'cmakelists.txt': 'CMake',
};

/** Vendored and documentation paths, which linguist leaves out. */
const EXCLUDED_PATH = /(^|\/)(node_modules|vendor|third_party|bower_components|dist|docs?|documentation)\//i;

/** The language of a file from its path, or undefined when it is none that counts. */
export function languageOfPath(path: string): string | undefined {
  if (EXCLUDED_PATH.test(path)) return undefined;
  const name = (path.slice(path.lastIndexOf('/') + 1) || path).toLowerCase();
  const byName = BY_NAME[name];
  if (byName) return byName;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  if (name.endsWith('.min.js') || name.endsWith('.min.css')) return undefined;
  return BY_EXTENSION[name.slice(dot + 1)];
}

export interface LanguageShare {
  name: string;
  /** Percent of the counted bytes, two decimals. */
  share: number;
}

/**
 * The languages of these files and their shares, largest first (ties by name). Shares are rounded to two
 * decimals by largest remainder, so they add up to 100.00 exactly. No counted bytes → no languages.
 */
export function languageShares(files: readonly { path: string; size: number }[]): LanguageShare[] {
  const bytes = new Map<string, number>();
  for (const file of files) {
    const language = languageOfPath(file.path);
    if (language) bytes.set(language, (bytes.get(language) ?? 0) + file.size);
  }
  const total = [...bytes.values()].reduce((sum, size) => sum + size, 0);
  if (total === 0) return [];
  // Hundredths of a percent: 10,000 in all, handed out by the largest remainders.
  const exact = [...bytes].map(([name, size]) => ({ name, units: (size * 10_000) / total }));
  const shares = exact.map((entry) => ({ ...entry, whole: Math.floor(entry.units) }));
  let left = 10_000 - shares.reduce((sum, entry) => sum + entry.whole, 0);
  const byRemainder = [...shares].sort(
    (a, b) => b.units - b.whole - (a.units - a.whole) || a.name.localeCompare(b.name),
  );
  for (const entry of byRemainder) {
    if (left <= 0) break;
    entry.whole += 1;
    left -= 1;
  }
  return shares
    .filter((entry) => entry.whole > 0)
    .map((entry) => ({ name: entry.name, share: entry.whole / 100 }))
    .sort((a, b) => b.share - a.share || a.name.localeCompare(b.name));
}
