package dev.canvasagent.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** At most one notification per window, the first at once and the last never lost; none after close. */
@ExtendWith(VertxExtension.class)
class CoalescedUpdatesTest {
  static final long WINDOW_MS = 50;

  @Test
  void aBurstIsToldOnceAtOnceAndOnceAtTheWindowsEnd(Vertx vertx, VertxTestContext test) {
    AtomicInteger told = new AtomicInteger();
    vertx.runOnContext(
        start -> {
          CoalescedUpdates updates = new CoalescedUpdates(vertx, WINDOW_MS, told::incrementAndGet);
          for (int i = 0; i < 20; i++) {
            updates.changed();
          }
          test.verify(() -> assertEquals(1, told.get(), "the first change is told at once"));
          // Two windows later the burst's last change has been told, and only once.
          vertx.setTimer(
              WINDOW_MS * 3,
              later -> {
                test.verify(() -> assertEquals(2, told.get()));
                updates.changed();
                test.verify(() -> assertEquals(3, told.get(), "a quiet window: told at once"));
                test.completeNow();
              });
        });
  }

  @Test
  void aChangeHeldForTheWindowIsDroppedWhenClosed(Vertx vertx, VertxTestContext test) {
    AtomicInteger told = new AtomicInteger();
    vertx.runOnContext(
        start -> {
          CoalescedUpdates updates = new CoalescedUpdates(vertx, WINDOW_MS, told::incrementAndGet);
          updates.changed();
          updates.changed();
          updates.close();
          updates.changed();
          vertx.setTimer(
              WINDOW_MS * 3,
              later -> {
                test.verify(() -> assertEquals(1, told.get()));
                test.completeNow();
              });
        });
  }
}
