package dev.canvasagent.runner.context;

import dev.canvasagent.board.Board;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.store.ChatStore.ChatMessage;
import dev.canvasagent.store.SessionStore.Origin;
import dev.canvasagent.store.TodoStore.Todo;
import dev.canvasagent.store.TranscriptStore.Utterance;
import io.vertx.core.json.JsonObject;
import java.util.List;

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
  JsonObject screenshot;
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

  ContextInputs build() {
    return new ContextInputs(roomId, sessionId, message, board, origin, viewport, selection, transcript, chat, todos, screenshot, followUp);
  }

  /** The scope a part renders in: the inputs and a fresh frame at their origin. */
  PartScope scope() {
    ContextInputs inputs = build();
    return new PartScope(inputs, new dev.canvasagent.board.CoordinateFrame(inputs.origin().x(), inputs.origin().y(), java.util.Map.of()));
  }
}
