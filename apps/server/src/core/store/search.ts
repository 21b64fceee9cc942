// Case-insensitive "contains" searches, as the lists' `search` parameters do: `%`, `_` and `\` of the term
// stand for themselves. LIKE with ESCAPE is SQL that SQLite and PostgreSQL share.
import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';

/** `text` contains `term`, ignoring case, the term taken literally. */
export function containsIgnoringCase(text: Expression<string>, term: string): RawBuilder<SqlBool> {
  const pattern = `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`lower(${text}) like ${pattern} escape '\\'`;
}
