package dev.canvasagent.runner;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.RoomView;
import dev.canvasagent.bus.RoomViewRequest;
import dev.canvasagent.bus.Screenshot;
import dev.canvasagent.bus.ScreenshotRequest;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.model.ModelContext;
import dev.canvasagent.nodeboards.BoardLookup;
import dev.canvasagent.runner.context.ContextBuilder;
import dev.canvasagent.runner.context.ContextGatherer;
import dev.canvasagent.runner.context.ModelView;
import dev.canvasagent.store.SessionStore.Origin;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers {@code runner.view}: the room as a run's model would see it now, made by the runner's own
 * context gatherer and builder (the prompt parts that show the room), so a model outside a run (an
 * MCP client's) sees what a run's model sees. The screenshot, when asked, is the host's as a run gets
 * it; without one the view still answers, saying why in {@code imageUnavailable}.
 */
final class RoomViews {
  private static final Logger LOG = LoggerFactory.getLogger(RoomViews.class);

  /** The session id the host's screenshot request carries: a view belongs to no session. */
  static final String SCREENSHOT_SESSION = "room-view";

  private final EventBus bus;
  private final AppConfig.Screenshot screenshots;
  private final BoardLookup boards;
  private final ContextGatherer gatherer;
  private final ContextBuilder builder;

  RoomViews(
      EventBus bus,
      AppConfig.Screenshot screenshots,
      BoardLookup boards,
      ContextGatherer gatherer,
      ContextBuilder builder) {
    this.bus = bus;
    this.screenshots = screenshots;
    this.boards = boards;
    this.gatherer = gatherer;
    this.builder = builder;
  }

  /** What the screenshot verticle answered: its image or why it has none. */
  private record Capture(Screenshot screenshot, RoomView.ImageUnavailable unavailable) {
    static final Capture NOT_ASKED = new Capture(null, null);
  }

  Future<RoomView> view(RoomViewRequest request) {
    String roomId = request.roomId();
    Origin origin =
        request.origin() == null ? null : new Origin(request.origin().x(), request.origin().y());
    return boards
        .current(roomId)
        .compose(
            board -> {
              Future<Capture> capture =
                  request.screenshot()
                      ? capture(request, board.revision())
                      : Future.succeededFuture(Capture.NOT_ASKED);
              return capture.compose(
                  taken ->
                      gatherer
                          .gatherView(roomId, board, request.viewport(), origin, taken.screenshot())
                          .map(inputs -> builder.view(inputs))
                          .map(
                              view ->
                                  roomView(
                                      request,
                                      board.revision(),
                                      view,
                                      viewportSource(request, view),
                                      taken)));
            });
  }

  private static String viewportSource(RoomViewRequest request, ModelView view) {
    if (request.viewport() != null) {
      return "request";
    }
    return view.wholeBoard() ? "board" : "host";
  }

  private RoomView roomView(
      RoomViewRequest request, long revision, ModelView view, String source, Capture capture) {
    RoomView.Image image = null;
    RoomView.ImageUnavailable unavailable = null;
    if (request.screenshot()) {
      if (view.image() != null) {
        image = new RoomView.Image(view.image().mediaType(), view.image().base64());
      } else if (capture.unavailable() != null) {
        unavailable = capture.unavailable();
      } else if (view.cut().contains("screenshot")) {
        unavailable =
            new RoomView.ImageUnavailable(
                "OVER_BUDGET", "the host's screenshot is larger than the screenshot budget");
      } else {
        unavailable =
            new RoomView.ImageUnavailable(
                "UNREADABLE", "the host's screenshot is not an image data URL");
      }
    }
    RoomView answer =
        new RoomView(
            request.roomId(),
            revision,
            view.frame(),
            RoomView.Bounds.fromJson(view.viewport()),
            source,
            view.strings(ModelContext.SELECTION),
            view.objects(ModelContext.SELECTED_SHAPES),
            view.objects(ModelContext.SHAPES),
            view.objects(ModelContext.PERIPHERAL),
            new RoomView.Counts(
                view.shapes(),
                view.inView(),
                view.listed(),
                view.outOfView(),
                view.clusters(),
                view.strings(ModelContext.SELECTION).size()),
            view.cut(),
            image,
            unavailable);
    LOG.atInfo()
        .addKeyValue("roomId", request.roomId())
        .addKeyValue("revision", revision)
        .addKeyValue("viewport", source)
        .addKeyValue("shapes", view.shapes())
        .addKeyValue("listed", view.listed())
        .addKeyValue("clusters", view.clusters())
        .addKeyValue("image", image != null)
        .addKeyValue("imageUnavailable", unavailable == null ? null : unavailable.code())
        .log("room.viewed");
    return answer;
  }

  /** The host's screenshot of the view, as a run asks for it; a failure is told, never failed. */
  private Future<Capture> capture(RoomViewRequest request, long revision) {
    ScreenshotRequest ask =
        new ScreenshotRequest(
            request.roomId(),
            SCREENSHOT_SESSION,
            request.viewport(),
            String.valueOf(revision),
            false);
    return Address.SCREENSHOT_CAPTURE
        .ask(bus, ask, new DeliveryOptions().setSendTimeout(screenshots.patienceMs()))
        .map(shot -> new Capture(shot, null))
        .otherwise(
            error -> {
              Failure failure = Failure.of(error);
              return new Capture(
                  null, new RoomView.ImageUnavailable(failure.code().name(), failure.getMessage()));
            });
  }
}
