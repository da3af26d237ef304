package dev.canvasagent.scheduler;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.BoardChangeRequest;
import dev.canvasagent.bus.RoomTopic;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryContext;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * What a session's runs send on the event bus, in the order they send it (an outbound interceptor runs
 * as the sender sends): each commit asked of the patch engine, each envelope and each status published;
 * and when the runner takes a cancel (an inbound interceptor, on the runner's thread, just before the
 * run hears it). So a test can tell what a run sent after its cancel was accepted, and after its final
 * status.
 */
final class BusLog implements AutoCloseable {
  /** One thing sent: {@code commit}, {@code envelope} (with its action id) or {@code status} (with its state and run). */
  record Sent(String kind, String runId, String detail) {}

  private final Vertx vertx;
  private final String roomId;
  private final String author;
  private final List<Sent> sent = new ArrayList<>();
  private final Handler<DeliveryContext<Object>> interceptor;
  private final Handler<DeliveryContext<Object>> cancels;

  BusLog(Vertx vertx, String roomId, String sessionId) {
    this.vertx = vertx;
    this.roomId = roomId;
    this.author = "agent:" + sessionId;
    this.interceptor = this::record;
    vertx.eventBus().addOutboundInterceptor(interceptor);
    this.cancels =
        delivery -> {
          if (delivery.message().address().equals(Address.RUNNER_CANCEL.address())
              && delivery.message().body() instanceof JsonObject body) {
            add(new Sent("cancel", body.getString("runId"), body.getString("code")));
          }
          delivery.next();
        };
    vertx.eventBus().addInboundInterceptor(cancels);
  }

  private void record(DeliveryContext<Object> delivery) {
    String address = delivery.message().address();
    if (delivery.message().body() instanceof JsonObject body) {
      if (address.equals(Address.PATCH_BOARD_APPLY.address())
          && author.equals(body.getString("author"))) {
        add(
            new Sent(
                "commit", null, String.valueOf(BoardChangeRequest.fromJson(body).baseRevision())));
      } else if (address.equals(RoomTopic.AGENT_ACTION.address(roomId))
          && !body.getBoolean("partial", false)) {
        String actionId = body.getJsonArray("actions").getJsonObject(0).getString("id");
        add(new Sent("envelope", actionId.substring(0, actionId.lastIndexOf(':')), actionId));
      } else if (address.equals(RoomTopic.AGENT_STATUS.address(roomId))) {
        add(
            new Sent(
                "status",
                body.getJsonObject("detail", new JsonObject()).getString("runId"),
                body.getString("state")));
      }
    }
    delivery.next();
  }

  private synchronized void add(Sent entry) {
    sent.add(entry);
  }

  synchronized List<Sent> sent() {
    return List.copyOf(sent);
  }

  /** The commits the session asked of the patch engine after the runner took run {@code runId}'s cancel, until its final status. */
  List<Sent> commitsAfterCancelOf(String runId) {
    List<Sent> all = sent();
    List<Sent> after = new ArrayList<>();
    boolean accepted = false;
    for (Sent entry : all) {
      if (entry.kind().equals("cancel") && runId.equals(entry.runId())) {
        accepted = true;
      } else if (entry.kind().equals("status") && runId.equals(entry.runId())) {
        if (accepted) {
          break;
        }
      } else if (accepted && entry.kind().equals("commit")) {
        after.add(entry);
      }
    }
    if (!accepted) {
      throw new AssertionError("the runner took no cancel of run " + runId + ": " + all);
    }
    return after;
  }

  /**
   * What was sent after run {@code runId}'s final status: that run's envelopes and statuses, and the
   * session's commits until the next run of the session starts (its commits are its own).
   */
  List<Sent> afterFinalStatusOf(String runId) {
    List<Sent> all = sent();
    int end = -1;
    for (int i = 0; i < all.size(); i++) {
      Sent entry = all.get(i);
      if (entry.kind().equals("status")
          && runId.equals(entry.runId())
          && List.of("done", "error", "canceled").contains(entry.detail())) {
        end = i;
        break;
      }
    }
    if (end < 0) {
      throw new AssertionError("run " + runId + " sent no final status: " + all);
    }
    List<Sent> after = new ArrayList<>();
    boolean nextRunStarted = false;
    for (Sent entry : all.subList(end + 1, all.size())) {
      nextRunStarted |=
          entry.kind().equals("status")
              && !runId.equals(entry.runId())
              && entry.detail().equals("waiting_context");
      if (runId.equals(entry.runId()) || (entry.kind().equals("commit") && !nextRunStarted)) {
        after.add(entry);
      }
    }
    return after;
  }

  @Override
  public void close() {
    vertx.eventBus().removeOutboundInterceptor(interceptor);
    vertx.eventBus().removeInboundInterceptor(cancels);
  }
}
