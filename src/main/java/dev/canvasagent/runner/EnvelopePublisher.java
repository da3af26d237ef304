package dev.canvasagent.runner;

import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.bus.ActionEnvelope;
import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.metrics.CanvasMetrics;
import dev.canvasagent.store.SessionStore;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts a session's envelopes on the room's {@code agent:action}, each with the session's next seq: a
 * run's, or an outside action's ({@link OutsideActions}). Seqs are taken one after the other, so an
 * action's partial envelopes always get lower seqs than its final one. Once a run's final status is
 * out ({@code open} false) nothing more is published, even an envelope whose seq was being taken.
 */
final class EnvelopePublisher {
  private static final Logger LOG = LoggerFactory.getLogger(EnvelopePublisher.class);

  private final EventBus bus;
  private final SessionStore sessions;
  private final String roomId;
  private final String sessionId;

  /** Told of each final envelope published (a run's metrics count them). */
  private final Runnable published;

  private final BooleanSupplier open;
  private final CanvasMetrics meters;
  private Future<Void> seqQueue = Future.succeededFuture();
  private int partialEnvelopes;

  EnvelopePublisher(
      EventBus bus,
      SessionStore sessions,
      String roomId,
      String sessionId,
      Runnable published,
      BooleanSupplier open,
      CanvasMetrics meters) {
    this.bus = bus;
    this.sessions = sessions;
    this.roomId = roomId;
    this.sessionId = sessionId;
    this.published = published;
    this.open = open;
    this.meters = meters;
  }

  /**
   * The envelope of an applied action: with its revision and diff when it changed the board, without
   * for client-only actions. Fails with {@code STORE_UNAVAILABLE} when no seq can be taken (then
   * nothing is published).
   */
  Future<Void> publish(AgentAction action, RecordDiff diff, long revision) {
    return withNextSeq(
        seq -> {
          if (!open.getAsBoolean()) {
            LOG.atWarn()
                .addKeyValue("sessionId", sessionId)
                .addKeyValue("actionId", action.id())
                .log("envelope.after_final_status");
            return;
          }
          ActionEnvelope envelope =
              new ActionEnvelope(
                  sessionId,
                  seq,
                  false,
                  List.of(action),
                  System.currentTimeMillis(),
                  revision,
                  diff == null ? null : diff.toJson());
          RoomTopic.AGENT_ACTION.publish(bus, roomId, envelope);
          meters.envelopePublished(false);
          published.run();
        });
  }

  /**
   * A board action still being written, as an envelope with {@code partial: true}: its stable id and
   * the params so far (the model's own, unsanitized), no rev or diff. {@code stillWanted} is asked
   * again once the seq is taken: an action completed or a run ended meanwhile sends nothing.
   */
  void publishPartial(
      String actionId, String verb, JsonObject params, BooleanSupplier stillWanted) {
    withNextSeq(
            seq -> {
              if (!stillWanted.getAsBoolean()) {
                return;
              }
              ActionEnvelope envelope =
                  new ActionEnvelope(
                      sessionId,
                      seq,
                      true,
                      List.of(new AgentAction(actionId, verb, params)),
                      System.currentTimeMillis(),
                      0,
                      null);
              RoomTopic.AGENT_ACTION.publish(bus, roomId, envelope);
              meters.envelopePublished(true);
              partialEnvelopes++;
            })
        .onFailure(
            error ->
                LOG.atInfo()
                    .addKeyValue("sessionId", sessionId)
                    .addKeyValue("reason", Failure.of(error).code())
                    .log("partial.not_sent"));
  }

  int partialEnvelopes() {
    return partialEnvelopes;
  }

  /** Takes the session's next seq once every seq asked for before is taken and used, then uses it. */
  private Future<Void> withNextSeq(LongConsumer send) {
    Future<Void> sent =
        seqQueue
            .transform(previous -> sessions.nextSeq(sessionId))
            .recover(error -> Failure.storeFailed("take the session's next seq", error))
            .map(
                seq -> {
                  send.accept(seq);
                  return null;
                });
    seqQueue = sent.transform(done -> Future.succeededFuture());
    return sent;
  }
}
