package dev.canvasagent.runner.context;

import dev.canvasagent.board.Board;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.store.ChatStore.ChatMessage;
import dev.canvasagent.store.SessionStore.Origin;
import dev.canvasagent.store.TodoStore.Todo;
import dev.canvasagent.store.TranscriptStore.Utterance;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Context inputs for tests: an empty room at origin 0,0 unless told otherwise. */
final class Inputs {
  String roomId = "room-1";
  String sessionId = "session-1";
  String message = "draw a box";
  Board board = Board.empty("room-1");
  Origin origin = Origin.ZERO;
  Viewport viewport;
  List<String> selection = List.of();
  List<Utterance> transcript = List.of();
  List<ChatMessage> chat = List.of();
  List<Todo> todos = List.of();
  dev.canvasagent.bus.Screenshot screenshot;
  dev.canvasagent.bus.FollowUp followUp;

  Inputs board(Board value) {
    board = value;
    return this;
  }

  Inputs followUp(dev.canvasagent.bus.FollowUp value) {
    followUp = value;
    return this;
  }

  Inputs origin(double x, double y) {
    origin = new Origin(x, y);
    return this;
  }

  Inputs viewport(double x, double y, double w, double h) {
    viewport = new Viewport(x, y, w, h);
    return this;
  }

  Inputs selection(String... recordIds) {
    selection = List.of(recordIds);
    return this;
  }

  /** What the parts would have gathered, by part name. */
  Map<String, Object> gathered = new HashMap<>();

  /** {@code part}'s gathered input, as its {@link PromptPart#gather} would have fetched it. */
  <T> Inputs gathered(PromptPart<T> part, T input) {
    gathered.put(part.name(), input);
    return this;
  }

  ContextInputs build() {
    Map<String, Object> all = new HashMap<>(gathered);
    all.put(new TranscriptPart().name(), transcript);
    all.put(new ChatHistoryPart().name(), chat);
    all.put(new TodosPart().name(), todos);
    return new ContextInputs(
        roomId, sessionId, message, board, origin, viewport, selection, screenshot, followUp, all);
  }

  /** The scope a part renders in: the inputs and a fresh frame at their origin. */
  PartScope scope() {
    ContextInputs inputs = build();
    return new PartScope(
        inputs,
        new dev.canvasagent.board.CoordinateFrame(
            inputs.origin().x(), inputs.origin().y(), java.util.Map.of()));
  }
}
