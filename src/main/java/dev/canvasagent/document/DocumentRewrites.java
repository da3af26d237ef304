package dev.canvasagent.document;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.document.patch.ApplyResult;
import dev.canvasagent.document.patch.StrictPatch;
import dev.canvasagent.store.DocumentStore.Change;
import dev.canvasagent.store.DocumentStore.Document;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rewriting tools' changes to a document's text: a strict patch, all or nothing, and a search and
 * replace within the regex budget. The caller commits the change under the lease.
 */
final class DocumentRewrites {
  private DocumentRewrites() {}

  static Change patch(StrictPatch patches, Document document, JsonObject args) {
    ApplyResult result = patches.apply(document.content(), args.getString("patch"));
    if (result instanceof ApplyResult.Rejected rejected) {
      var rejection = rejected.rejection();
      throw new Failure(
          FailureCode.PATCH_REJECTED, rejection.reason() + ": " + rejection.message());
    }
    ApplyResult.Applied applied = (ApplyResult.Applied) result;
    JsonArray placements = new JsonArray();
    applied
        .placements()
        .forEach(
            placement ->
                placements.add(
                    new JsonObject()
                        .put("hunk", placement.hunk())
                        .put("expected_line", placement.expectedLine())
                        .put("applied_line", placement.appliedLine())
                        .put("offset", placement.offset())));
    Integer first =
        applied.placements().isEmpty() ? null : applied.placements().get(0).appliedLine();
    return new Change(
        applied.text(),
        "patch",
        first,
        null,
        null,
        args.getString("patch"),
        args.getString("reason"),
        new JsonObject()
            .put("applied_hunks", applied.placements().size())
            .put("placements", placements));
  }

  static Change searchReplace(Document document, JsonObject args) {
    boolean regex = args.getBoolean("regex", false);
    Pattern pattern =
        BoundedRegex.compile(
            args.getString("search_pattern"), regex, args.getBoolean("case_sensitive", true));
    int max = args.getInteger("max_replacements", 0);
    String replacement =
        regex
            ? args.getString("replace_with")
            : Matcher.quoteReplacement(args.getString("replace_with"));
    long deadline = System.nanoTime() + DocumentTools.REGEX_BUDGET_MS * 1_000_000;
    String content = document.content();
    Matcher matcher =
        pattern.matcher(
            BoundedRegex.withDeadline(content, deadline, DocumentTools.REGEX_BUDGET_MS));
    StringBuilder out = new StringBuilder();
    ReplacedLines replaced = new ReplacedLines(content);
    int count = 0;
    try {
      while ((max == 0 || count < max) && matcher.find()) {
        matcher.appendReplacement(out, replacement);
        replaced.matched(matcher.start(), matcher.end(), out.length());
        count++;
      }
    } catch (IllegalArgumentException | IndexOutOfBoundsException badReplacement) {
      throw new Failure(
          FailureCode.INVALID_REQUEST, "replace_with: " + badReplacement.getMessage());
    }
    matcher.appendTail(out);
    JsonObject lines = replaced.report(out.toString());
    return new Change(
        out.toString(),
        "search_replace",
        null,
        null,
        args.getString("search_pattern"),
        args.getString("replace_with"),
        args.getString("reason"),
        // Seed 001's names beside ours: replacements_made, the lines touched and each change.
        new JsonObject()
            .put("replacements", count)
            .put("replacements_made", count)
            .put("affected_lines", lines.getJsonArray("affected_lines"))
            .put("diffs", lines.getJsonArray("diffs")));
  }
}
