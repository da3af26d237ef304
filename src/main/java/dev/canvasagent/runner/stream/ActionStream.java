package dev.canvasagent.runner.stream;

import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.VerbKind;
import dev.canvasagent.model.ModelEvent;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's model stream read as actions: each tool call, and each action of an actions JSON in the
 * text, goes to the {@link Listener} as soon as it is complete, with a stable id ({@code
 * <runId>:<ordinal>} for tool calls, {@code <runId>:t<index>} for text actions); board actions still
 * being written go to it as previews when the {@link PartialGate} lets them. A tool call's end is the
 * provider's verdict on its arguments; the fragments before it only feed previews.
 */
public final class ActionStream {
  private static final Logger LOG = LoggerFactory.getLogger(ActionStream.class);

  /** Where the actions go. */
  public interface Listener {
    /** A complete action; answers whether to go on reading (false once the run stops taking actions). */
    boolean action(AgentAction action);

    /** The params so far of a board action still being written, new since its last preview. */
    void preview(String actionId, String verb, JsonObject params);

    /** The text's actions JSON cannot be read; nothing more is read after it. */
    void unreadable(String problem);

    /**
     * The model's prose so far in the current stretch (since the last tool call or actions JSON),
     * for the chat; it may shrink when what looked like prose turns out to open an actions JSON.
     */
    default void prose(String stretchSoFar) {}

    /** The current stretch of prose is over: a tool call or an actions JSON began, or the model stopped. */
    default void proseEnds() {}

    /** The {@code text} so far of a chat action ({@code think}, {@code message}) still being written. */
    default void chatPartial(String actionId, String textSoFar) {}
  }

  private final String runId;
  private final ActionCatalog catalog;
  private final EnumFields enumFields;
  private final PartialGate partials;
  private final Listener listener;
  private final ActionsArrayReader textActions = new ActionsArrayReader();
  private final Map<Integer, ToolCallArgumentsReader> toolCallArguments = new HashMap<>();

  /** The tool calls being written whose verb talks to the room: their text goes out as it comes. */
  private final Set<Integer> chatCalls = new HashSet<>();

  /** Where the current stretch of prose starts in {@link ActionsArrayReader#prose}. */
  private int proseStart;

  private boolean proseBeforeActions = true;

  public ActionStream(
      String runId, ActionCatalog catalog, PartialGate partials, Listener listener) {
    this.runId = runId;
    this.catalog = catalog;
    this.enumFields = new EnumFields(catalog);
    this.partials = partials;
    this.listener = listener;
  }

  /** Text: prose for the chat, or an actions JSON whose every completed action goes to the listener. */
  public void text(ModelEvent.TextDelta text) {
    List<StreamedAction> completed = textActions.feed(text.text());
    // The prose first: it was written before the actions this fragment completed.
    streamProse();
    for (StreamedAction action : completed) {
      String actionId = textActionId(action.index());
      partials.close(actionId);
      if (!listener.action(new AgentAction(actionId, action.name(), action.params()))) {
        return;
      }
    }
    if (textActions.problem().isPresent()) {
      listener.unreadable(textActions.problem().get());
      return;
    }
    textActions
        .writing()
        .ifPresent(
            writing -> {
              String actionId = textActionId(writing.index());
              if (talks(writing.verb())) {
                textActions
                    .partial(enumFields)
                    .ifPresent(
                        action ->
                            listener.chatPartial(actionId, action.params().getString("text")));
              } else if (previewable(actionId, writing.verb())) {
                textActions
                    .partial(enumFields)
                    .ifPresent(action -> offer(actionId, action.name(), action.params()));
              }
            });
  }

  public void toolCallStart(ModelEvent.ToolCallStart start) {
    endProse();
    if (talks(start.name())) {
      chatCalls.add(start.ordinal());
      toolCallArguments.put(start.ordinal(), new ToolCallArgumentsReader(start.name()));
    } else if (previewable(toolCallId(start.ordinal()), start.name())) {
      toolCallArguments.put(start.ordinal(), new ToolCallArgumentsReader(start.name()));
    }
  }

  /** An argument fragment: the snapshot it makes may be previewed; the call's end decides the action. */
  public void toolCallDelta(ModelEvent.ToolCallDelta delta) {
    ToolCallArgumentsReader reader = toolCallArguments.get(delta.ordinal());
    if (reader == null) {
      return;
    }
    try {
      reader.feed(delta.argumentsDelta());
    } catch (MalformedActions malformed) {
      // No more previews of this call; its end carries the provider's verdict on the arguments.
      toolCallArguments.remove(delta.ordinal());
      LOG.atInfo()
          .addKeyValue("runId", runId)
          .addKeyValue("ordinal", delta.ordinal())
          .addKeyValue("reason", malformed.getMessage())
          .log("partial.unreadable_arguments");
      return;
    }
    String actionId = toolCallId(delta.ordinal());
    if (chatCalls.contains(delta.ordinal())) {
      listener.chatPartial(actionId, reader.snapshot(enumFields).getString("text"));
    } else if (partials.due(actionId)) {
      offer(actionId, reader.name(), reader.snapshot(enumFields));
    }
  }

  public void toolCallEnd(ModelEvent.ToolCallEnd end) {
    String actionId = toolCallId(end.ordinal());
    partials.close(actionId);
    ToolCallArgumentsReader reader = toolCallArguments.remove(end.ordinal());
    chatCalls.remove(end.ordinal());
    if (reader != null
        && reader.arguments().filter(parsed -> !parsed.equals(end.arguments())).isPresent()) {
      LOG.atWarn()
          .addKeyValue("runId", runId)
          .addKeyValue("ordinal", end.ordinal())
          .log("partial.arguments_disagree");
    }
    listener.action(new AgentAction(actionId, end.name(), end.arguments()));
  }

  /** The model stopped: the problem with the text's actions JSON if it was left unfinished or broken. */
  public Optional<String> finish() {
    textActions.finish();
    streamProse();
    listener.proseEnds();
    return textActions.problem();
  }

  /** The current stretch of prose to the listener; an actions JSON that just began ends it. */
  private void streamProse() {
    String all = textActions.prose();
    if (proseBeforeActions && textActions.sawActions()) {
      proseBeforeActions = false;
      // The fence before the JSON is gone from the prose now; the stretch ends where the JSON
      // began.
      listener.prose(stretch(all));
      endProse();
      return;
    }
    if (proseBeforeActions) {
      // A code fence at the end may open an actions JSON: held back until that is known.
      int fence = all.lastIndexOf("```", all.length());
      if (fence >= proseStart) {
        all = all.substring(0, fence);
      }
    }
    listener.prose(stretch(all));
  }

  private String stretch(String all) {
    return all.length() > proseStart ? all.substring(proseStart).strip() : "";
  }

  private void endProse() {
    listener.proseEnds();
    proseStart = textActions.prose().length();
  }

  /** The model's text without its actions JSON (and its fence): what goes to the chat. */
  public String prose() {
    return textActions.prose();
  }

  /** Whether the verb talks to the room ({@code think}, {@code message}): its text is streamed to the chat. */
  private boolean talks(String verb) {
    return verb != null
        && catalog.entry(verb).map(entry -> entry.verb().kind() == VerbKind.CHAT).orElse(false);
  }

  /** Whether the action may still be previewed: not complete yet. */
  public boolean isOpen(String actionId) {
    return partials.isOpen(actionId);
  }

  private void offer(String actionId, String verb, JsonObject params) {
    if (partials.offer(actionId, params)) {
      listener.preview(actionId, verb, params);
    }
  }

  /** Whether a snapshot of this action may go out now: a board verb, and its gate open (checked before making one). */
  private boolean previewable(String actionId, String verb) {
    return partials.due(actionId)
        && catalog.entry(verb).map(entry -> entry.verb().kind() == VerbKind.BOARD).orElse(false);
  }

  private String textActionId(int index) {
    return runId + ":t" + index;
  }

  private String toolCallId(int ordinal) {
    return runId + ":" + ordinal;
  }
}
