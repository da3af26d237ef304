package dev.canvasagent.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The codes' bus numbers, HTTP statuses and retryability: what clients and other nodes rely on. */
class FailureCodeTest {
  @Test
  void everyReplyKeepsItsBusNumberAndTheOthersHaveNone() {
    FailureCode[] replies =
        Arrays.stream(FailureCode.values())
            .filter(FailureCode::isReply)
            .toArray(FailureCode[]::new);
    assertEquals(42, replies.length);
    for (int i = 0; i < replies.length; i++) {
      assertEquals(i + 1, replies[i].wire(), replies[i].name());
      assertEquals(replies[i], FailureCode.fromWire(i + 1).orElseThrow());
    }
    assertTrue(FailureCode.fromWire(0).isEmpty());
    assertThrows(IllegalStateException.class, FailureCode.CANCELED::wire);
    assertThrows(IllegalStateException.class, FailureCode.INVALID_FRAME::httpStatus);
  }

  @Test
  void eachReplyHasTheHttpStatusTheBridgeAnswersWith() {
    Map<Integer, Set<FailureCode>> byStatus =
        Map.ofEntries(
            Map.entry(
                400,
                EnumSet.of(
                    FailureCode.INVALID_JSON,
                    FailureCode.INVALID_REQUEST,
                    FailureCode.UNKNOWN_MODEL,
                    FailureCode.ACTION_INVALID,
                    FailureCode.DUPLICATE_CREATE)),
            Map.entry(401, EnumSet.of(FailureCode.UNAUTHENTICATED, FailureCode.TOKEN_EXPIRED)),
            Map.entry(
                403,
                EnumSet.of(
                    FailureCode.FORBIDDEN,
                    FailureCode.ORIGIN_NOT_ALLOWED,
                    FailureCode.HOST_NOT_ALLOWED)),
            Map.entry(
                404,
                EnumSet.of(
                    FailureCode.NOT_FOUND,
                    FailureCode.SESSION_NOT_FOUND,
                    FailureCode.RUN_NOT_FOUND)),
            Map.entry(405, EnumSet.of(FailureCode.METHOD_NOT_ALLOWED)),
            Map.entry(408, EnumSet.of(FailureCode.REQUEST_TIMEOUT)),
            Map.entry(
                409,
                EnumSet.of(
                    FailureCode.SESSION_ROOM_MISMATCH,
                    FailureCode.REVISION_CONFLICT,
                    FailureCode.SESSION_BUSY,
                    FailureCode.LOCK_NOT_AVAILABLE,
                    FailureCode.LOCK_NOT_OWNED,
                    FailureCode.LEASE_EXPIRED,
                    FailureCode.STALE_EPOCH,
                    FailureCode.RUN_INTERRUPTED,
                    FailureCode.RUN_ROOM_MISMATCH,
                    FailureCode.RUN_STILL_RUNNING,
                    FailureCode.RUN_NOT_REVERTIBLE)),
            Map.entry(413, EnumSet.of(FailureCode.BODY_TOO_LARGE)),
            Map.entry(415, EnumSet.of(FailureCode.UNSUPPORTED_MEDIA_TYPE)),
            Map.entry(
                422,
                EnumSet.of(
                    FailureCode.SHAPE_NOT_FOUND,
                    FailureCode.INVALID_RECORD,
                    FailureCode.MODEL_NOT_CONFIGURED,
                    FailureCode.PATCH_REJECTED,
                    FailureCode.IDEMPOTENCY_KEY_REUSED)),
            Map.entry(429, EnumSet.of(FailureCode.QUEUE_FULL, FailureCode.RATE_LIMITED)),
            Map.entry(500, EnumSet.of(FailureCode.INTERNAL)),
            Map.entry(
                503,
                EnumSet.of(
                    FailureCode.NO_HOST,
                    FailureCode.STORE_UNAVAILABLE,
                    FailureCode.SHUTTING_DOWN,
                    FailureCode.STARTING)),
            Map.entry(504, EnumSet.of(FailureCode.SCREENSHOT_TIMEOUT, FailureCode.TIMEOUT)));
    Map<Integer, Set<FailureCode>> actual =
        Arrays.stream(FailureCode.values())
            .filter(FailureCode::isReply)
            .collect(
                Collectors.groupingBy(
                    FailureCode::httpStatus,
                    Collectors.toCollection(() -> EnumSet.noneOf(FailureCode.class))));
    assertEquals(byStatus, actual);
  }

  @Test
  void onlyTheFailuresThatPassByThemselvesAreRetryable() {
    Set<FailureCode> retryable =
        Arrays.stream(FailureCode.values())
            .filter(FailureCode::retryable)
            .collect(Collectors.toCollection(() -> EnumSet.noneOf(FailureCode.class)));
    assertEquals(
        EnumSet.of(
            FailureCode.TIMEOUT,
            FailureCode.STORE_UNAVAILABLE,
            FailureCode.NO_HOST,
            FailureCode.SCREENSHOT_TIMEOUT,
            FailureCode.QUEUE_FULL,
            FailureCode.REVISION_CONFLICT,
            FailureCode.INTERRUPTED,
            FailureCode.SHUTTING_DOWN,
            FailureCode.STARTING),
        retryable);
    assertFalse(
        FailureCode.MODEL_ERROR.retryable(),
        "a model error's retryability is the provider's to say");
  }

  @Test
  void aCodeIsFoundByTheNameClientsSee() {
    assertEquals(FailureCode.DEADLINE, FailureCode.named("DEADLINE").orElseThrow());
    assertTrue(FailureCode.named("deadline").isEmpty());
    assertTrue(FailureCode.named(null).isEmpty());
  }
}
