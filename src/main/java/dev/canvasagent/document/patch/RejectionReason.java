package dev.canvasagent.document.patch;

/** Every reason a strict patch is refused; the document is left untouched in each case. */
public enum RejectionReason {
  /** No hunk at all (empty text, or headers only). */
  EMPTY_PATCH,
  /** {@code Binary files … differ} or {@code GIT binary patch}: a Markdown document has no binary form. */
  BINARY_PATCH,
  /** A second file header: a patch edits exactly one document. */
  SECOND_FILE,
  /** {@code new file mode} or {@code --- /dev/null}: the document already exists. */
  FILE_CREATION,
  /** {@code deleted file mode} or {@code +++ /dev/null}: a patch cannot delete the document. */
  FILE_DELETION,
  /** {@code rename from/to}, {@code copy from/to} or a similarity index. */
  RENAME_OR_COPY,
  /** {@code old mode}/{@code new mode}: a document has no file mode. */
  MODE_CHANGE,
  /** A {@code ---} header without its {@code +++}, or the reverse. */
  MALFORMED_HEADER,
  /** Text that is neither a header nor part of a hunk, before the first hunk or after the last. */
  UNEXPECTED_TEXT,
  /** A line starting with {@code @@} that is not {@code @@ -a[,b] +c[,d] @@}. */
  MALFORMED_HUNK_HEADER,
  /** The hunk's lines do not add up to the counts in its header. */
  HUNK_COUNT_MISMATCH,
  /** A hunk line that starts with none of {@code ' '}, {@code '-'}, {@code '+'}, {@code '\'}. */
  CORRUPT_HUNK_LINE,
  /** A hunk of context lines only: it changes nothing, which git calls corrupt. */
  HUNK_WITHOUT_CHANGES,
  /** The patch text's last line lacks its newline (only when the parser is as strict as git). */
  MISSING_FINAL_NEWLINE,
  /** A hunk's old lines are not in the document: nowhere, or not where its anchoring allows. */
  CONTEXT_MISMATCH
}
