package dev.canvasagent.runner.context;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The registry of prompt parts: the builder renders these, the gatherer fetches their inputs, and the
 * system prompt's list of context sections is made from their descriptions. Adding a part is adding
 * it here (the order does not matter: everything goes by priority).
 */
public final class PromptParts {
  private PromptParts() {}

  static final List<PromptPart<?>> STANDARD =
      List.of(
          new UserMessagePart(),
          new FollowUpPart(),
          new DocVersionPart(),
          new ViewportPart(),
          new SelectionPart(),
          new SelectedShapesPart(),
          new ContextItemsPart(),
          new BlurryShapesPart(),
          new TranscriptPart(),
          new ChatHistoryPart(),
          new TodosPart(),
          new PeripheralClustersPart(),
          new ShapeStatePart(),
          new ScreenshotPart());

  /** The standard parts' names, in priority order. */
  public static List<String> names() {
    return byPriority(STANDARD).stream().map(PromptPart::name).toList();
  }

  /**
   * The sections the model gets, for the system prompt, in priority order: "a, b, …, and z" from the
   * parts that describe themselves.
   */
  public static String described() {
    return described(STANDARD);
  }

  static String described(List<PromptPart<?>> parts) {
    List<String> phrases =
        byPriority(parts).stream().map(PromptPart::describedAs).filter(Objects::nonNull).toList();
    if (phrases.size() < 2) {
      return String.join("", phrases);
    }
    return String.join(", ", phrases.subList(0, phrases.size() - 1))
        + ", and "
        + phrases.get(phrases.size() - 1);
  }

  static List<PromptPart<?>> byPriority(List<PromptPart<?>> parts) {
    List<PromptPart<?>> sorted = new ArrayList<>(parts);
    sorted.sort(Comparator.comparingInt(PromptPart::priority));
    return List.copyOf(sorted);
  }
}
