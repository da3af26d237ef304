package dev.canvasagent.model;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One tool call while it streams, the same for every provider: its argument text is accumulated
 * as it arrives and parsed once, at the call's end (README rule 1). The call is announced
 * ({@link ModelEvent.ToolCallStart}) as soon as both its id and name are known; fragments that
 * arrive before that are held and follow the start in order.
 */
public final class OpenToolCall {
  private final int ordinal;
  private final Consumer<ModelEvent> sink;
  private final StringBuilder arguments = new StringBuilder();
  private final List<ModelEvent.ToolCallDelta> held = new ArrayList<>();
  private String callId;
  private String name;
  private boolean started;
  private boolean ended;
  private String signature;

  public OpenToolCall(int ordinal, Consumer<ModelEvent> sink) {
    this.ordinal = ordinal;
    this.sink = sink;
  }

  /** A call whose id and name are known at once: it is announced immediately. */
  public static OpenToolCall started(
      int ordinal, String callId, String name, Consumer<ModelEvent> sink) {
    OpenToolCall call = new OpenToolCall(ordinal, sink);
    call.identify(callId, name);
    return call;
  }

  public int ordinal() {
    return ordinal;
  }

  public String callId() {
    return callId;
  }

  public String name() {
    return name;
  }

  public boolean started() {
    return started;
  }

  public boolean ended() {
    return ended;
  }

  /** Fills in the id and the name where still unknown (null or empty leaves them), announcing the call once both are. */
  public void identify(String id, String callName) {
    if (callId == null && id != null && !id.isEmpty()) {
      callId = id;
    }
    if (name == null && callName != null && !callName.isEmpty()) {
      name = callName;
    }
    if (!started && callId != null && name != null) {
      announce();
    }
  }

  /** Appends a raw argument fragment; empty fragments are dropped. */
  public void append(String fragment) {
    append(fragment, false);
  }

  /** {@code synthetic}: a fragment the normalizer wrote itself (see {@link ModelEvent.ToolCallDelta}). */
  public void append(String fragment, boolean synthetic) {
    if (fragment == null || fragment.isEmpty() || ended) {
      return;
    }
    arguments.append(fragment);
    if (started) {
      sink.accept(new ModelEvent.ToolCallDelta(ordinal, callId, fragment, synthetic));
    } else {
      held.add(new ModelEvent.ToolCallDelta(ordinal, null, fragment, synthetic));
    }
  }

  /** The argument text so far. */
  public String argumentsText() {
    return arguments.toString();
  }

  /**
   * Ends the call: parses the arguments ({@code authoritative} text replaces the accumulated text
   * when the provider repeats it whole, as Responses does; null keeps the accumulated text) and
   * emits the end. A call never announced is announced first, with a generated id or empty name.
   *
   * @return the error to end the stream with when the arguments are not a JSON object, else null
   */
  /** Keeps the provider's opaque token for this call, to hand back with it in the next turn. */
  public void sign(String signature) {
    this.signature = signature;
  }

  public ModelEvent.Error end(String authoritative) {
    if (ended) {
      return null;
    }
    if (!started) {
      identify(callId != null ? callId : "call_" + ordinal, null);
      if (!started) {
        name = "";
        announce();
      }
    }
    JsonObject parsed;
    try {
      parsed = ToolArguments.parse(authoritative != null ? authoritative : arguments.toString());
    } catch (IllegalArgumentException e) {
      return new ModelEvent.Error(
          "invalid_tool_arguments",
          "Arguments of " + name + " (" + callId + ") are not a JSON object",
          false);
    }
    ended = true;
    sink.accept(new ModelEvent.ToolCallEnd(ordinal, callId, name, parsed, signature));
    return null;
  }

  private void announce() {
    started = true;
    sink.accept(new ModelEvent.ToolCallStart(ordinal, callId, name));
    for (ModelEvent.ToolCallDelta delta : held) {
      sink.accept(
          new ModelEvent.ToolCallDelta(ordinal, callId, delta.argumentsDelta(), delta.synthetic()));
    }
    held.clear();
  }
}
