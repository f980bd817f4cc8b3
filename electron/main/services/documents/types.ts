/** What a document's text is made of, which decides how it is chunked (code and JSON split at lines, never sentences). */
export type DocKind = 'text' | 'markdown' | 'code' | 'pdf' | 'docx' | 'html' | 'csv' | 'json';

/** A stretch of the document's text under one heading path (and, for a PDF, on one page). */
export interface DocSection {
  /** The headings above this stretch, outermost first ([] before the first heading). */
  headings: string[];
  /** 1-based page number, PDFs only. */
  page?: number;
  /** Character range in `ExtractedDoc.text`, end exclusive. */
  start: number;
  end: number;
}

/**
 * A document's text as HubDesk reads it: Markdown-like (headings as `#` lines, code in ``` fences, tables as `|`
 * rows), whatever the source format, so one chunker serves all of them.
 */
export interface ExtractedDoc {
  kind: DocKind;
  text: string;
  /** In order, not overlapping; together they cover every character worth indexing. */
  sections: DocSection[];
  /** PDFs: the number of pages (with or without text). */
  pages?: number;
}

/** One passage as it is embedded, searched and cited. */
export interface DocChunk {
  /** The text given to the model: the passage, after a split table's header row when it continues a table. */
  text: string;
  headings: string[];
  page?: number;
  /** Character range of the passage in `ExtractedDoc.text` (overlap included, a repeated header not). */
  start: number;
  end: number;
  /** `estimateTokens(text)`. */
  tokens: number;
}
