package dev.canvasagent.bench;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Answers a model might give, as catalog actions: a board of labelled shapes built up, moved and
 * aligned, the way a layout request comes back. Deterministic for a seed, so every run of a
 * benchmark parses the same bytes.
 */
final class BenchActions {
  /** One action: the verb (a tool's name) and its params (the tool call's arguments). */
  record Action(String verb, JsonObject params) {}

  private static final List<String> TYPES =
      List.of("rectangle", "ellipse", "note", "text", "diamond");
  private static final List<String> COLORS =
      List.of("blue", "black", "red", "green", "orange", "violet");
  private static final List<String> FILLS = List.of("none", "semi", "solid");
  private static final List<String> ALIGNMENTS =
      List.of("left", "top", "center-horizontal", "center-vertical");
  private static final List<String> WORDS =
      List.of(
          "Sign-up",
          "Onboarding",
          "Checkout",
          "Review",
          "Café menu",
          "Payments → ledger",
          "Search results",
          "Profile",
          "Notifications",
          "Weekly report",
          "Release notes",
          "Settings");

  private BenchActions() {}

  /** The small answer of the latency benchmark: two labelled boxes, then aligned. */
  static List<Action> small() {
    return List.of(
        new Action("create_shape", shape("a", "rectangle", 100, 100, "Plan", "blue", "solid")),
        new Action("create_shape", shape("b", "rectangle", 320, 140, "Build", "green", "semi")),
        new Action(
            "align",
            new JsonObject()
                .put("shapeIds", new JsonArray().add("a").add("b"))
                .put("alignment", "top")));
  }

  /**
   * The busy-board benchmark's answer for run {@code run}: two boxes of the run's own (ids, place and
   * text: the sanitizer drops a create identical to a shape already on the board), then a restyle, a
   * move, a relabel and an align of them, after a think; seven actions, each applicable.
   */
  static List<Action> busy(long run) {
    String a = "r" + run + "a";
    String b = "r" + run + "b";
    int x = (int) (run % 20) * 260;
    int y = (int) (run / 20 % 50) * 180;
    return List.of(
        new Action("think", new JsonObject().put("text", "Two boxes, then tidy them.")),
        new Action("create_shape", shape(a, "rectangle", x, y, "A of r" + run, "black", "none")),
        new Action(
            "create_shape",
            shape(b, "rectangle", x + 120, y + 40, "B of r" + run, "black", "none")),
        new Action(
            "update_shape",
            new JsonObject().put("shapeId", a).put("props", new JsonObject().put("color", "blue"))),
        new Action(
            "move",
            new JsonObject()
                .put("shapeIds", new JsonArray().add(a).add(b))
                .put("dx", 10)
                .put("dy", 5)),
        new Action(
            "label",
            new JsonObject().put("shapeId", b).put("text", "B of r" + run + ", relabeled")),
        new Action(
            "align",
            new JsonObject()
                .put("shapeIds", new JsonArray().add(a).add(b))
                .put("alignment", "top")));
  }

  /**
   * {@code count} actions: about three in four create a labelled shape, the rest move a shape just
   * made or align the last three.
   */
  static List<Action> board(int count, long seed) {
    Random random = new Random(seed);
    List<Action> actions = new ArrayList<>(count);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int kind = random.nextInt(8);
      if (ids.size() < 3 || kind < 6) {
        String id = "s" + ids.size();
        ids.add(id);
        String label =
            WORDS.get(random.nextInt(WORDS.size()))
                + " "
                + (i + 1)
                + ": "
                + (random.nextBoolean()
                    ? "ask the team for the final copy"
                    : "keep it short, one line");
        actions.add(
            new Action(
                "create_shape",
                shape(
                    id,
                    TYPES.get(random.nextInt(TYPES.size())),
                    80 + 220 * (ids.size() % 6),
                    80 + 160 * (ids.size() / 6),
                    label,
                    COLORS.get(random.nextInt(COLORS.size())),
                    FILLS.get(random.nextInt(FILLS.size())))));
      } else if (kind == 6) {
        actions.add(
            new Action(
                "move",
                new JsonObject()
                    .put("shapeIds", new JsonArray().add(ids.get(random.nextInt(ids.size()))))
                    .put("dx", random.nextInt(81) - 40)
                    .put("dy", random.nextInt(41) - 20)));
      } else {
        int last = ids.size();
        actions.add(
            new Action(
                "align",
                new JsonObject()
                    .put(
                        "shapeIds",
                        new JsonArray()
                            .add(ids.get(last - 3))
                            .add(ids.get(last - 2))
                            .add(ids.get(last - 1)))
                    .put("alignment", ALIGNMENTS.get(random.nextInt(ALIGNMENTS.size())))));
      }
    }
    return actions;
  }

  private static JsonObject shape(
      String id, String type, int x, int y, String text, String color, String fill) {
    return new JsonObject()
        .put("id", id)
        .put("type", type)
        .put("x", x)
        .put("y", y)
        .put("text", text)
        .put(
            "props",
            new JsonObject().put("w", 180).put("h", 90).put("color", color).put("fill", fill));
  }

  /**
   * {@code text} cut into pieces of {@code min} to {@code max} characters (never inside a surrogate
   * pair), as a model's stream cuts its output.
   */
  static List<String> fragments(String text, int min, int max, Random random) {
    List<String> pieces = new ArrayList<>();
    int at = 0;
    while (at < text.length()) {
      int end = Math.min(text.length(), at + min + random.nextInt(max - min + 1));
      if (end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) {
        end++;
      }
      pieces.add(text.substring(at, end));
      at = end;
    }
    return pieces;
  }
}
