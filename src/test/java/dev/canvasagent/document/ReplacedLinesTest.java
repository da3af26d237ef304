package dev.canvasagent.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.store.DocumentStore.Change;
import dev.canvasagent.store.DocumentStore.Document;
import dev.canvasagent.store.DocumentText;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@code canvas_search_replace}'s seed 001 report: {@code affected_lines} and {@code diffs
 * [{line, before, after}]}, one per run of touched lines, in the old text's numbering. Putting each
 * diff's {@code after} where its {@code before} was gives the new text exactly.
 */
class ReplacedLinesTest {
  static Change replace(String content, String pattern, boolean regex, String with) {
    Document document =
        new Document(
            "doc-1",
            "doc-1",
            "T",
            content,
            DocumentText.revisionId(content),
            1,
            List.of(),
            List.of(),
            0,
            0);
    return DocumentRewrites.searchReplace(
        document,
        new JsonObject()
            .put("search_pattern", pattern)
            .put("regex", regex)
            .put("replace_with", with));
  }

  static JsonObject diff(int line, String before, String after) {
    return new JsonObject().put("line", line).put("before", before).put("after", after);
  }

  @Test
  void eachRunOfTouchedLinesIsOneDiff() {
    Change twoOnOneLine = replace("a b a\nc\na\n", "a", false, "A");
    assertEquals(List.of(1, 3), twoOnOneLine.details().getJsonArray("affected_lines").getList());
    assertEquals(
        List.of(diff(1, "a b a", "A b A"), diff(3, "a", "A")),
        twoOnOneLine.details().getJsonArray("diffs").getList());
    assertEquals(3, twoOnOneLine.details().getInteger("replacements_made"));

    Change joined = replace("ab\ncd\nef\n", "b\n", false, "B ");
    assertEquals(List.of(1, 2), joined.details().getJsonArray("affected_lines").getList());
    assertEquals(
        List.of(diff(1, "ab\ncd", "aB cd")),
        joined.details().getJsonArray("diffs").getList(),
        "a match that takes a newline joins the next line into its run");

    Change split = replace("one two\n", " ", false, "\n");
    assertEquals(
        List.of(diff(1, "one two", "one\ntwo")), split.details().getJsonArray("diffs").getList());

    Change prefixed = replace("a\nb", "(?m)^", true, "> ");
    assertEquals(
        List.of(diff(1, "a", "> a"), diff(2, "b", "> b")),
        prefixed.details().getJsonArray("diffs").getList(),
        "an empty match's insertion belongs to its line");

    Change none = replace("a\n", "z", false, "Z");
    assertEquals(List.of(), none.details().getJsonArray("diffs").getList());
    assertEquals(List.of(), none.details().getJsonArray("affected_lines").getList());
  }

  @Test
  void theDiffsRebuildTheNewTextFromTheOld() {
    Random random = new Random(17);
    List<String> patterns = List.of("a", "ab", "b\n", "\n", "\na", "a\nb", "(?m)^", "b*", "$");
    List<String> replacements = List.of("", "X", "Y\nZ", "\n", "a");
    for (int round = 0; round < 2000; round++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(14);
      for (int i = 0; i < length; i++) {
        text.append("ab\nc".charAt(random.nextInt(4)));
      }
      String pattern = patterns.get(random.nextInt(patterns.size()));
      boolean regex = pattern.startsWith("(") || pattern.endsWith("*") || pattern.equals("$");
      String with = replacements.get(random.nextInt(replacements.size()));
      Change change = replace(text.toString(), pattern, regex, with);
      String at = text + " /" + pattern + "/ -> " + with;
      assertEquals(change.content(), rebuilt(text.toString(), change.details(), at), at);
    }
  }

  /** The old text with each diff's before replaced by its after, checking lines as it goes. */
  private static String rebuilt(String old, JsonObject details, String at) {
    List<Integer> starts = new ArrayList<>(List.of(0));
    for (int i = old.indexOf('\n'); i >= 0; i = old.indexOf('\n', i + 1)) {
      starts.add(i + 1);
    }
    List<Integer> affected = new ArrayList<>();
    StringBuilder out = new StringBuilder();
    int copied = 0;
    for (Object item : details.getJsonArray("diffs")) {
      JsonObject diff = (JsonObject) item;
      int line = diff.getInteger("line");
      int from = starts.get(line - 1);
      String before = diff.getString("before");
      assertTrue(from >= copied, at + ": runs in order, apart");
      assertEquals(before, old.substring(from, from + before.length()), at);
      out.append(old, copied, from).append(diff.getString("after"));
      copied = from + before.length();
      for (int i = 0; i <= before.chars().filter(c -> c == '\n').count(); i++) {
        affected.add(line + i);
      }
    }
    assertEquals(
        new JsonArray(affected), details.getJsonArray("affected_lines"), at + ": affected lines");
    return out.append(old.substring(copied)).toString();
  }
}
