package dev.canvasagent.model.fake.planner;

import dev.canvasagent.model.fake.FakeAnswer;
import dev.canvasagent.model.fake.FakeAnswer.ToolCall;
import dev.canvasagent.model.fake.planner.CanvasView.Area;
import dev.canvasagent.model.fake.planner.ShapeWords.Category;
import dev.canvasagent.model.fake.planner.ShapeWords.Noun;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * "draw a blue rectangle labeled A", "add 3 sticky notes", "draw boxes labeled A, B and C", "write
 * Hello": shapes of one kind, in a row, in free space inside the viewport.
 */
final class CreatePlan {
  static final Set<String> VERBS =
      Set.of("draw", "add", "create", "make", "put", "place", "sketch", "insert", "write");

  /** More than this many shapes in one command is not a plain command any more. */
  static final int MAX_SHAPES = 20;

  /** A plural noun without a number: a small row. */
  static final int PLURAL_COUNT = 3;

  static final double ROW_GAP = 40;
  private static final Pattern ARROW_BETWEEN =
      Pattern.compile("\\barrows? from (.+?) to (.+)$", Pattern.CASE_INSENSITIVE);
  private static final Pattern LABEL =
      Pattern.compile(
          "\\s(?:labell?ed|called|named|saying|that says|which says|reading|with (?:the )?(?:text|label|words?))\\s+(.+)$|:\\s*(.+)$",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern QUOTED = Pattern.compile("[\"“]([^\"“”]+)[\"”]");
  private static final Pattern LABEL_LIST =
      Pattern.compile("\\s*(?:,|\\band\\b|&)\\s*", Pattern.CASE_INSENSITIVE);
  private static final int MAX_LABEL_CHARS = 500;

  private CreatePlan() {}

  /** The answer, or empty when the command does not say what to draw. */
  static Optional<FakeAnswer> plan(Command command, CanvasView view) {
    String after = command.textAfterVerb();
    Matcher between = ARROW_BETWEEN.matcher(after);
    if (between.find()) {
      return Optional.of(
          ConnectPlan.connect(words(between.group(1)), words(between.group(2)), view));
    }
    String label = null;
    String descriptor = after;
    Matcher marked = LABEL.matcher(" " + after);
    Matcher quoted = QUOTED.matcher(after);
    if (marked.find()) {
      label = marked.group(1) != null ? marked.group(1) : marked.group(2);
      descriptor = (" " + after).substring(0, marked.start()).strip();
    } else if (quoted.find()) {
      label = quoted.group(1);
      descriptor =
          (after.substring(0, quoted.start()) + " " + after.substring(quoted.end())).strip();
    }
    label = clean(label);
    Shapes shapes = Shapes.read(words(descriptor));
    Noun noun = shapes.noun;
    if (command.verb().equals("write")) {
      if (label == null) {
        label = clean(after);
      }
      noun = noun == null ? ShapeWords.text() : noun;
    }
    if (noun == null) {
      if (label == null) {
        return Optional.empty();
      }
      noun = ShapeWords.rectangle();
    }
    if (noun.category() == Category.TEXT && label == null) {
      return Optional.of(
          FakeAnswer.say(
              "What should the text say? Try: write Hello, or add a text saying Hello."));
    }
    List<String> labels = labels(label, shapes);
    if (labels.isEmpty() || labels.size() > MAX_SHAPES) {
      return Optional.of(FakeAnswer.say("I draw 1 to " + MAX_SHAPES + " shapes at a time."));
    }
    return Optional.of(
        FakeAnswer.act(
            describe(labels, noun, shapes), calls(labels, noun, shapes, new FreeSpace(view))));
  }

  /** What a command's words before the label say about the shapes. */
  private static final class Shapes {
    Noun noun;
    boolean plural;
    OptionalInt count = OptionalInt.empty();

    /** The count so far is only an article's ("a couple of boxes" is two). */
    boolean countIsArticle;

    String color;
    String fill;
    String dash;
    double scale = 1;

    static Shapes read(List<String> words) {
      Shapes shapes = new Shapes();
      for (int i = 0; i < words.size(); i++) {
        String word = words.get(i);
        Optional<ColorWords.Found> color =
            shapes.color == null ? ColorWords.at(words, i) : Optional.empty();
        Optional<Noun> noun = ShapeWords.of(word);
        if ((shapes.count.isEmpty() || shapes.countIsArticle)
            && shapes.noun == null
            && Numbers.count(word).isPresent()) {
          shapes.count = Numbers.count(word);
          shapes.countIsArticle = word.equals("a") || word.equals("an");
        } else if (color.isPresent()) {
          shapes.color = color.get().color();
          i += color.get().length() - 1;
        } else if (noun.isPresent() && shapes.noun == null) {
          shapes.noun = noun.get();
          shapes.plural = ShapeWords.isPlural(word);
        } else {
          shapes.style(word);
        }
      }
      return shapes;
    }

    private void style(String word) {
      switch (word) {
        case "filled", "solid" -> fill = "solid";
        case "hollow", "outlined", "empty" -> fill = "none";
        case "hatched", "striped" -> fill = "pattern";
        case "translucent", "shaded" -> fill = "semi";
        case "dashed" -> dash = "dashed";
        case "dotted" -> dash = "dotted";
        case "big", "large", "huge" -> scale = 1.5;
        case "small", "little", "tiny" -> scale = 0.6;
        default -> {
          // Any other word (an article, "me", a word for something else) changes nothing.
        }
      }
    }
  }

  /** One label per shape (null for none): "A, B and C" names three when the noun is plural. */
  private static List<String> labels(String label, Shapes shapes) {
    int count = shapes.count.orElse(shapes.plural ? PLURAL_COUNT : 1);
    if (label != null && (shapes.plural || count > 1)) {
      List<String> parts =
          Arrays.stream(LABEL_LIST.split(label))
              .map(String::strip)
              .filter(part -> !part.isEmpty())
              .toList();
      if (parts.size() > 1 && (shapes.count.isEmpty() || count == parts.size())) {
        return parts;
      }
    }
    if (count < 1 || count > MAX_SHAPES) {
      return List.of();
    }
    return Collections.nCopies(count, label);
  }

  private static List<ToolCall> calls(
      List<String> labels, Noun noun, Shapes shapes, FreeSpace space) {
    double w =
        noun.category() == Category.TEXT ? textWidth(labels) : Math.round(noun.w() * shapes.scale);
    double h =
        Math.round(
            noun.h()
                * (noun.category() == Category.GEO || noun.category() == Category.FRAME
                    ? shapes.scale
                    : 1));
    Area row = space.take(labels.size() * w + (labels.size() - 1) * ROW_GAP, h);
    List<ToolCall> calls = new ArrayList<>();
    for (int i = 0; i < labels.size(); i++) {
      double x = row.x() + i * (w + ROW_GAP);
      calls.add(Calls.create(arguments(noun, shapes, labels.get(i), x, row.y(), w, h)));
    }
    return calls;
  }

  private static JsonObject arguments(
      Noun noun, Shapes shapes, String label, double x, double y, double w, double h) {
    JsonObject arguments = new JsonObject().put("type", noun.type());
    JsonObject props = new JsonObject();
    switch (noun.category()) {
      case GEO, FRAME -> {
        arguments.put("x", Calls.whole(x)).put("y", Calls.whole(y));
        props.put("w", Calls.whole(w)).put("h", Calls.whole(h));
      }
      case NOTE, TEXT -> arguments.put("x", Calls.whole(x)).put("y", Calls.whole(y));
      case ARROW ->
          arguments
              .put("start", Calls.point(x, y + h / 2))
              .put("end", Calls.point(x + w, y + h / 2));
      case LINE ->
          arguments.put(
              "points",
              new JsonArray().add(Calls.point(x, y + h / 2)).add(Calls.point(x + w, y + h / 2)));
      default -> throw new IllegalStateException("no placement for " + noun.category());
    }
    if (label != null) {
      arguments.put("text", label);
    }
    if (shapes.color != null && noun.category() != Category.FRAME) {
      props.put("color", shapes.color);
    }
    if (noun.category() == Category.GEO) {
      putIfSet(props, "fill", shapes.fill);
      putIfSet(props, "dash", shapes.dash);
    }
    if (noun.category() == Category.TEXT && shapes.scale != 1) {
      props.put("size", shapes.scale > 1 ? "xl" : "s");
    }
    if (!props.isEmpty()) {
      arguments.put("props", props);
    }
    return arguments;
  }

  /** Room for a text's words: its autosized width is only known to the browser. */
  private static double textWidth(List<String> labels) {
    int longest =
        labels.stream().mapToInt(label -> label == null ? 0 : label.length()).max().orElse(0);
    return Math.max(60, 14 * longest);
  }

  private static String describe(List<String> labels, Noun noun, Shapes shapes) {
    StringBuilder text = new StringBuilder("Drawing ");
    String color = shapes.color == null ? "" : shapes.color.replace('-', ' ') + " ";
    String name = noun.name();
    if (labels.size() == 1) {
      text.append(startsWithVowel(color + name) ? "an " : "a ").append(color).append(name);
    } else {
      text.append(labels.size()).append(' ').append(color).append(plural(name));
    }
    List<String> distinct =
        labels.stream().filter(java.util.Objects::nonNull).distinct().map(Phrases::quoted).toList();
    if (!distinct.isEmpty()) {
      text.append(noun.category() == Category.TEXT ? " saying " : " labeled ")
          .append(Phrases.list(distinct));
    }
    return text.append('.').toString();
  }

  private static boolean startsWithVowel(String word) {
    return !word.isEmpty() && "aeiou".indexOf(word.charAt(0)) >= 0;
  }

  private static String plural(String name) {
    return name.endsWith("x") ? name + "es" : name.equals("text") ? "texts" : name + "s";
  }

  private static void putIfSet(JsonObject props, String key, String value) {
    if (value != null) {
      props.put(key, value);
    }
  }

  static List<String> words(String text) {
    return Command.parse(text).words();
  }

  private static String clean(String label) {
    if (label == null) {
      return null;
    }
    String cleaned = label.strip().replaceAll("^[\"“'‘]+|[\"”'’.!?]+$", "").strip();
    return cleaned.isEmpty()
        ? null
        : cleaned.substring(0, Math.min(cleaned.length(), MAX_LABEL_CHARS));
  }
}
