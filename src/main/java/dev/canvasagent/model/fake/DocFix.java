package dev.canvasagent.model.fake;

import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.model.Turn;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;

/**
 * {@code /doc-fix OLD => NEW}: a scripted document-agent loop for tests. Asked fresh, it reads the
 * whole document ({@code canvas_read_all}); given what it read, it replaces the first line holding
 * {@code OLD} with that line's {@code OLD} replaced by {@code NEW} ({@code canvas_replace_lines}); after
 * that, {@code FakeModel}'s usual summary ends the loop. Without {@code OLD} in the document it says so.
 */
final class DocFix {
  static final String COMMAND = "/doc-fix";
  private static final String ARROW = "=>";

  private DocFix() {}

  /** The answer for {@code message}, when it is a {@code /doc-fix} command and the loop is not past its edit. */
  static Optional<FakeAnswer> answer(ModelRequest request, String message) {
    if (!message.startsWith(COMMAND)) {
      return Optional.empty();
    }
    String spec = message.substring(COMMAND.length()).strip();
    int arrow = spec.indexOf(ARROW);
    if (arrow <= 0) {
      return Optional.of(FakeAnswer.say("Usage: " + COMMAND + " OLD " + ARROW + " NEW"));
    }
    String old = spec.substring(0, arrow).strip();
    String replacement = spec.substring(arrow + ARROW.length()).strip();
    List<Turn> turns = request.turns();
    Turn last = turns.isEmpty() ? null : turns.get(turns.size() - 1);
    if (!(last instanceof Turn.ToolResults results)) {
      return Optional.of(
          FakeAnswer.act(
              "Reading the document.",
              List.of(new FakeAnswer.ToolCall("canvas_read_all", new JsonObject()))));
    }
    Optional<Turn.ToolResult> read =
        results.results().stream()
            .filter(result -> "canvas_read_all".equals(result.name()) && !result.isError())
            .findFirst();
    if (read.isEmpty()) {
      return Optional.empty();
    }
    String[] lines = read.get().result().getString("content", "").split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].contains(old)) {
        JsonObject args =
            new JsonObject()
                .put("start_line", i + 1)
                .put("end_line", i + 1)
                .put("new_content", lines[i].replace(old, replacement))
                .put("reason", "doc-fix");
        return Optional.of(
            FakeAnswer.act(
                "Fixing line " + (i + 1) + ".",
                List.of(new FakeAnswer.ToolCall("canvas_replace_lines", args))));
      }
    }
    return Optional.of(FakeAnswer.say("Nothing to fix: '" + old + "' is not in the document."));
  }
}
