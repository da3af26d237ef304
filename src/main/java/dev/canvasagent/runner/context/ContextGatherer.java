package dev.canvasagent.runner.context;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.RoomRef;
import dev.canvasagent.bus.RoomViewports;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.bus.Screenshot;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.store.SessionStore.Origin;
import dev.canvasagent.store.Store;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collects what a run's context is made from. Viewport and selection come from the run request when
 * it gives them, else from the room's host client (its latest {@code canvas:viewport}); selected ids
 * not on the board are ignored. The session origin is fixed by the session's first run (the
 * viewport's top-left, else 0,0) and reused after. Meanwhile every registered part gathers its own
 * inputs ({@link PromptPart#gather}), all at once; a part whose source cannot answer is left without
 * input (logged) rather than failing the run.
 */
public final class ContextGatherer {
  private static final Logger LOG = LoggerFactory.getLogger(ContextGatherer.class);
  static final long HOST_VIEW_TIMEOUT_MS = 1_000;

  private final EventBus bus;
  private final Store store;
  private final AppConfig.Context config;
  private final LongSupplier clock;
  private final List<PromptPart<?>> parts;

  public ContextGatherer(EventBus bus, Store store, AppConfig.Context config, LongSupplier clock) {
    this(bus, store, config, clock, PromptParts.STANDARD);
  }

  ContextGatherer(
      EventBus bus,
      Store store,
      AppConfig.Context config,
      LongSupplier clock,
      List<PromptPart<?>> parts) {
    this.bus = bus;
    this.store = store;
    this.config = config;
    this.clock = clock;
    this.parts = List.copyOf(parts);
  }

  /** The host's latest viewport and selection, either possibly absent. */
  private record HostView(Viewport viewport, List<String> selection) {
    static final HostView NONE = new HostView(null, null);
  }

  public Future<ContextInputs> gather(RunRequest request, Board board, Screenshot screenshot) {
    Future<HostView> host =
        request.viewport() != null && request.selection() != null
            ? Future.succeededFuture(HostView.NONE)
            : hostView(request.roomId(), request.runId());
    Future<Map<String, Object>> gathered =
        gatherParts(request, new ContextSources(bus, store, config, clock, board));
    return host.compose(
        view -> {
          Viewport viewport = request.viewport() != null ? request.viewport() : view.viewport();
          List<String> selection =
              onBoard(board, request.selection() != null ? request.selection() : view.selection());
          Future<Origin> origin = origin(request, viewport);
          return Future.all(origin, gathered)
              .map(
                  all ->
                      new ContextInputs(
                          request.roomId(),
                          request.sessionId(),
                          request.message(),
                          board,
                          origin.result(),
                          viewport,
                          selection,
                          screenshot,
                          request.followUp(),
                          gathered.result()));
        });
  }

  /**
   * The inputs of a look at the room ({@code runner.view}) rather than a run: no session, no message,
   * nothing a part gathers for a prompt. The viewport is {@code viewport} when given, else the host's
   * as for a run (null when the room has none); the selection is the room's, the host's first; the
   * origin is {@code origin} when given, else the viewport's top-left as a session's first run fixes
   * it, 0,0 without a viewport. {@code screenshot} may be null.
   */
  public Future<ContextInputs> gatherView(
      String roomId, Board board, Viewport viewport, Origin origin, Screenshot screenshot) {
    return hostView(roomId, null)
        .map(
            host -> {
              Viewport seen = viewport != null ? viewport : host.viewport();
              Origin from =
                  origin != null
                      ? origin
                      : seen == null ? Origin.ZERO : new Origin(seen.x(), seen.y());
              return new ContextInputs(
                  roomId,
                  null,
                  "",
                  board,
                  from,
                  seen,
                  onBoard(board, host.selection()),
                  screenshot,
                  null,
                  Map.of());
            });
  }

  /** Every part's input by part name; a failed one is logged and absent. Never fails. */
  private Future<Map<String, Object>> gatherParts(RunRequest request, ContextSources sources) {
    Map<String, Object> inputs = new HashMap<>();
    List<Future<?>> pending = new ArrayList<>();
    for (PromptPart<?> part : parts) {
      pending.add(
          part.gather(sources, request)
              .<Object>map(
                  input -> {
                    inputs.put(part.name(), input);
                    return input;
                  })
              .otherwise(
                  error -> {
                    LOG.atWarn()
                        .addKeyValue("runId", request.runId())
                        .addKeyValue("part", part.name())
                        .addKeyValue("error", error.getMessage())
                        .log("context.part_unavailable");
                    return null;
                  }));
    }
    return Future.all(pending).map(all -> inputs);
  }

  /** The host's view, or none when the bridge cannot say; {@code runId} (null: none) is for the log. */
  private Future<HostView> hostView(String roomId, String runId) {
    return Address.BRIDGE_VIEWPORTS
        .ask(bus, new RoomRef(roomId), new DeliveryOptions().setSendTimeout(HOST_VIEW_TIMEOUT_MS))
        .map(
            reply -> {
              if (reply.viewports().isEmpty()) {
                return HostView.NONE;
              }
              RoomViewports.ClientViewport first = reply.viewports().get(0);
              return new HostView(
                  first.bounds(), first.selection() == null ? List.of() : first.selection());
            })
        .otherwise(
            error -> {
              LOG.atInfo()
                  .addKeyValue("roomId", roomId)
                  .addKeyValue("runId", runId)
                  .addKeyValue("error", error.getMessage())
                  .log("context.no_host_view");
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
      if (id != null && board.shape(id).isPresent()) {
        ids.add(id);
      }
    }
    return List.copyOf(ids);
  }

  private Future<Origin> origin(RunRequest request, Viewport viewport) {
    Origin proposed = viewport == null ? Origin.ZERO : new Origin(viewport.x(), viewport.y());
    return store
        .sessions()
        .fixOrigin(request.sessionId(), proposed)
        .otherwise(
            error -> {
              LOG.atWarn()
                  .addKeyValue("runId", request.runId())
                  .addKeyValue("error", error.getMessage())
                  .log("context.origin_unavailable");
              return proposed;
            });
  }
}
