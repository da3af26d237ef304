package dev.canvasagent.runner.context;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.store.ChatStore.ChatMessage;
import dev.canvasagent.store.SessionStore.Origin;
import dev.canvasagent.store.Store;
import dev.canvasagent.store.TodoStore.Todo;
import dev.canvasagent.store.TranscriptStore.Utterance;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collects what a run's context is made from. Viewport and selection come from the run request when
 * it gives them, else from the room's host client (its latest {@code canvas:viewport}); selected ids
 * not on the board are ignored. The session origin is fixed by the session's first run (the
 * viewport's top-left, else 0,0) and reused after. The session's context items are read every run. A store that cannot answer leaves its part empty
 * (logged) rather than failing the run.
 */
public final class ContextGatherer {
  private static final Logger LOG = LoggerFactory.getLogger(ContextGatherer.class);
  static final long HOST_VIEW_TIMEOUT_MS = 1_000;
  static final int MAX_TRANSCRIPT_UTTERANCES = 200;

  private final EventBus bus;
  private final Store store;
  private final AppConfig.Context config;
  private final LongSupplier clock;

  public ContextGatherer(EventBus bus, Store store, AppConfig.Context config, LongSupplier clock) {
    this.bus = bus;
    this.store = store;
    this.config = config;
    this.clock = clock;
  }

  /** The host's latest viewport and selection, either possibly absent. */
  private record HostView(Viewport viewport, List<String> selection) {
    static final HostView NONE = new HostView(null, null);
  }

  public Future<ContextInputs> gather(RunRequest request, Board board, JsonObject screenshot) {
    Future<HostView> host = request.viewport() != null && request.selection() != null
        ? Future.succeededFuture(HostView.NONE)
        : hostView(request);
    Future<List<Utterance>> transcript = transcript(request);
    Future<List<ChatMessage>> chat = chat(request);
    Future<List<Todo>> todos = todos(request);
    Future<List<JsonObject>> contextItems = contextItems(request);
    return host.compose(view -> {
      Viewport viewport = request.viewport() != null ? request.viewport() : view.viewport();
      List<String> selection = onBoard(board, request.selection() != null ? request.selection() : view.selection());
      Future<Origin> origin = origin(request, viewport);
      return Future.all(origin, transcript, chat, todos, contextItems).map(all -> new ContextInputs(
          request.roomId(), request.sessionId(), request.message(), board, origin.result(), viewport, selection,
          transcript.result(), chat.result(), todos.result(), screenshot, request.followUp(), contextItems.result()));
    });
  }

  private Future<HostView> hostView(RunRequest request) {
    return bus.<JsonObject>request(Address.BRIDGE_VIEWPORTS, new JsonObject().put("roomId", request.roomId()),
            new DeliveryOptions().setSendTimeout(HOST_VIEW_TIMEOUT_MS))
        .map(reply -> {
          JsonArray viewports = reply.body().getJsonArray("viewports", new JsonArray());
          if (viewports.isEmpty() || !(viewports.getValue(0) instanceof JsonObject first)) {
            return HostView.NONE;
          }
          Viewport viewport = first.getValue("bounds") instanceof JsonObject bounds ? Viewport.fromJson(bounds) : null;
          List<String> selection = new ArrayList<>();
          if (first.getValue("selection") instanceof JsonArray ids) {
            ids.forEach(id -> {
              if (id instanceof String text) {
                selection.add(text);
              }
            });
          }
          return new HostView(viewport, selection);
        })
        .otherwise(error -> {
          LOG.atInfo().addKeyValue("runId", request.runId()).addKeyValue("error", error.getMessage()).log("context.no_host_view");
          return HostView.NONE;
        });
  }

  /** The record ids of the referenced shapes that are on the board, once each, in the order given. */
  static List<String> onBoard(Board board, List<String> references) {
    if (references == null) {
      return List.of();
    }
    Set<String> ids = new LinkedHashSet<>();
    for (String reference : references) {
      String id = ShapeIds.recordId(reference);
      if (id != null && board.record(id).filter(record -> "shape".equals(record.getValue("typeName"))).isPresent()) {
        ids.add(id);
      }
    }
    return List.copyOf(ids);
  }

  private Future<Origin> origin(RunRequest request, Viewport viewport) {
    Origin proposed = viewport == null ? Origin.ZERO : new Origin(viewport.x(), viewport.y());
    return store.sessions().fixOrigin(request.sessionId(), proposed)
        .otherwise(error -> {
          LOG.atWarn().addKeyValue("runId", request.runId()).addKeyValue("error", error.getMessage()).log("context.origin_unavailable");
          return proposed;
        });
  }

  private Future<List<Utterance>> transcript(RunRequest request) {
    if (config.transcriptWindowMs() == 0) {
      return Future.succeededFuture(List.of());
    }
    long since = clock.getAsLong() - config.transcriptWindowMs();
    return store.transcripts().since(request.roomId(), since, MAX_TRANSCRIPT_UTTERANCES)
        .otherwise(error -> unavailable(request, "transcript", error));
  }

  private Future<List<ChatMessage>> chat(RunRequest request) {
    if (config.chatMessages() == 0) {
      return Future.succeededFuture(List.of());
    }
    return store.chats().recent(request.sessionId(), config.chatMessages())
        .otherwise(error -> unavailable(request, "chat", error));
  }

  private Future<List<Todo>> todos(RunRequest request) {
    return store.todos().list(request.sessionId()).otherwise(error -> unavailable(request, "todos", error));
  }

  /** The session's context items, read fresh every run (a person may change them between runs). */
  private Future<List<JsonObject>> contextItems(RunRequest request) {
    return store.sessions().find(request.sessionId())
        .map(session -> session.map(found -> found.contextItems().stream()
            .filter(JsonObject.class::isInstance).map(JsonObject.class::cast).toList()).orElse(List.of()))
        .otherwise(error -> unavailable(request, "contextItems", error));
  }

  private static <T> List<T> unavailable(RunRequest request, String part, Throwable error) {
    LOG.atWarn().addKeyValue("runId", request.runId()).addKeyValue("part", part).addKeyValue("error", error.getMessage())
        .log("context.part_unavailable");
    return List.of();
  }
}
