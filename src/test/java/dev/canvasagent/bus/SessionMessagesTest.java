package dev.canvasagent.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The session and health messages' one JSON mapping: each reads back what it wrote, also after the
 * JSON has been encoded as text (as it crosses nodes), writes the keys the bus has always carried, and
 * a message without a key it needs is INVALID_REQUEST naming that key.
 */
class SessionMessagesTest {
  static final IdempotencyKey KEY =
      IdempotencyKey.of("alice", "key-1", new JsonObject().put("roomId", "demo"));
  static final JsonObject SESSION =
      new JsonObject()
          .put("id", "s1")
          .put("roomId", "demo")
          .put("title", "Roadmap")
          .put("model", "mock")
          .putNull("origin")
          .put("contextItems", new JsonArray().add(new JsonObject().put("type", "shape")))
          .put("createdAt", 1_700_000_000_000L)
          .put("lastActiveAt", 1_700_000_000_500L);

  static <T extends BusMessage> void roundTrips(T message, Function<JsonObject, T> read) {
    assertEquals(message, read.apply(message.toJson()));
    assertEquals(message, read.apply(new JsonObject(message.toJson().encode())), "through text");
  }

  static void refused(Function<JsonObject, ?> read, JsonObject json, String key) {
    Failure failure = assertThrows(Failure.class, () -> read.apply(json));
    assertEquals(FailureCode.INVALID_REQUEST, failure.code());
    assertTrue(failure.getMessage().contains(key), failure.getMessage());
  }

  @Test
  void requestsReadBackWhatTheyWrite() {
    roundTrips(new SessionRef("s1", "demo"), SessionRef::fromJson);
    roundTrips(SessionRef.of("s1"), SessionRef::fromJson);
    roundTrips(new SessionCreate("demo", "Roadmap", "mock", KEY), SessionCreate::fromJson);
    roundTrips(new SessionCreate("demo", null, null, null), SessionCreate::fromJson);
    roundTrips(
        new SessionUpdate(
            "s1",
            "demo",
            "New",
            "mock",
            new JsonArray().add(new JsonObject().put("type", "point"))),
        SessionUpdate::fromJson);
    roundTrips(new SessionUpdate("s1", null, null, null, new JsonArray()), SessionUpdate::fromJson);
    roundTrips(new SessionListQuery("demo", 20), SessionListQuery::fromJson);
    roundTrips(new HealthProbe(), HealthProbe::fromJson);
    roundTrips(new HealthProbe(true), HealthProbe::fromJson);
    roundTrips(new DrainRequest(20_000), DrainRequest::fromJson);
    roundTrips(new Drained(2, 1, 3), Drained::fromJson);
  }

  @Test
  void repliesReadBackWhatTheyWrite() {
    roundTrips(new SessionView(SESSION), SessionView::fromJson);
    roundTrips(new SessionList("demo", List.of(SESSION, SESSION)), SessionList::fromJson);
    roundTrips(new SessionList("demo", List.of()), SessionList::fromJson);
    roundTrips(
        new SessionResume(
            SESSION,
            List.of(new JsonObject().put("role", "user").put("text", "hi").put("at", 1L)),
            List.of(),
            List.of(new JsonObject().put("runId", "r1").put("state", "done")),
            List.of(new JsonObject().put("speaker", "Ann").put("text", "hello").put("ts", 2L)),
            7),
        SessionResume::fromJson);
    roundTrips(new SessionDeleted("s1"), SessionDeleted::fromJson);
    roundTrips(new HealthReport(true, new JsonObject().put("running", 1)), HealthReport::fromJson);
    roundTrips(HealthReport.failed("no answer"), HealthReport::fromJson);
  }

  @Test
  void theBusCarriesTheKeysItAlwaysHas() {
    assertEquals(
        Set.of("roomId", "title", "model", IdempotencyKey.FIELD),
        new SessionCreate("demo", "Roadmap", "mock", KEY).toJson().fieldNames());
    assertEquals(Set.of("sessionId"), SessionRef.of("s1").toJson().fieldNames());
    assertEquals(
        Set.of("sessionId", "roomId", "contextItems"),
        new SessionUpdate("s1", "demo", null, null, new JsonArray()).toJson().fieldNames());
    assertEquals(
        new JsonObject().put("sessionId", "s1").put("deleted", true),
        new SessionDeleted("s1").toJson());
    assertEquals(
        Set.of("session", "chat", "todos", "runs", "transcript", "boardRevision"),
        new SessionResume(SESSION, List.of(), List.of(), List.of(), List.of(), 0)
            .toJson()
            .fieldNames());
    assertEquals(
        new JsonObject().put("ok", false).put("error", "down"),
        HealthReport.failed("down").toJson());
  }

  @Test
  void aMessageWithoutAKeyItNeedsIsAnInvalidRequestNamingIt() {
    refused(SessionRef::fromJson, new JsonObject().put("roomId", "demo"), "sessionId");
    refused(SessionRef::fromJson, new JsonObject().put("sessionId", 7), "sessionId");
    refused(SessionCreate::fromJson, new JsonObject().put("title", "x"), "roomId");
    refused(SessionListQuery::fromJson, new JsonObject().put("roomId", "demo"), "limit");
    refused(
        SessionListQuery::fromJson,
        new JsonObject().put("roomId", "demo").put("limit", "20"),
        "limit");
    refused(
        SessionUpdate::fromJson,
        new JsonObject().put("sessionId", "s1").put("contextItems", "all"),
        "contextItems");
    refused(SessionView::fromJson, new JsonObject(), "session");
    refused(
        SessionList::fromJson,
        new JsonObject().put("roomId", "demo").put("sessions", new JsonArray().add(1)),
        "sessions");
    refused(
        SessionResume::fromJson,
        new SessionResume(SESSION, List.of(), List.of(), List.of(), List.of(), 0)
            .toJson()
            .copy()
            .put("boardRevision", (Object) null),
        "boardRevision");
    refused(SessionDeleted::fromJson, new JsonObject().put("deleted", true), "sessionId");
  }

  @Test
  void aHealthReportWithoutOkIsUnhealthy() {
    HealthReport report = HealthReport.fromJson(new JsonObject().put("running", 1));
    assertFalse(report.ok());
    assertEquals(new JsonObject().put("running", 1), report.detail());
    assertNull(report.detail().getValue("ok"));
    assertTrue(HealthReport.fromJson(new JsonObject().put("ok", true)).ok());
  }
}
