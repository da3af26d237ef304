package dev.canvasagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.auth.AccessTokens;
import dev.canvasagent.auth.Grant;
import dev.canvasagent.auth.Role;
import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.ServerProcess;
import dev.canvasagent.support.SseClient;
import dev.canvasagent.support.SseClient.SseEvent;
import dev.canvasagent.support.TestDatabase;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The packaged jar ({@code java -jar target/canvas-agent.jar}) after {@code package}: it serves with
 * the embedded defaults, and against PostgreSQL it migrates the schema from inside the jar and leaves
 * a run's revisions there; {@code mint-token} prints a development token.
 */
@ExtendWith(VertxExtension.class)
class FatJarIT {
  static final List<String> JAR = List.of("-jar", "target/canvas-agent.jar");

  @Test
  void theJarServesHealthWithNoDatabase(Vertx vertx) throws Exception {
    try (ServerProcess server = ServerProcess.java(JAR, Map.of("PORT", "0"))) {
      // The process gives back the heap it does not need: the flags it set itself, by default.
      String footprint = server.awaitLine(Pattern.compile(".*heap\\.footprint.*"));
      assertTrue(footprint.contains("MaxHeapFreeRatio=\"20 (MANAGEMENT)\""), footprint);
      assertTrue(footprint.contains("MinHeapFreeRatio=\"10 (MANAGEMENT)\""), footprint);
      assertTrue(footprint.contains("G1PeriodicGCInterval=\"30000 (MANAGEMENT)\""), footprint);
      int port = server.awaitStartedPort();
      JsonObject health =
          Await.result(WebClient.create(vertx).get(port, "127.0.0.1", "/health").send())
              .bodyAsJsonObject();
      assertEquals("up", health.getString("status"));
      assertEquals("memory", health.getJsonObject("store").getString("kind"));
      // The browser client comes from inside the jar: the page, or the note that this build has
      // none.
      var page = Await.result(WebClient.create(vertx).get(port, "127.0.0.1", "/").send());
      if (dev.canvasagent.support.WebBuild.built()) {
        assertEquals(200, page.statusCode());
        assertTrue(page.bodyAsString().contains("<div id=\"root\">"), page.bodyAsString());
      } else {
        assertTrue(
            page.bodyAsString().contains("The web client was not built"), page.bodyAsString());
      }
      server.terminate();
      assertEquals(0, server.awaitExit(), "a drained stop exits 0");
    }
  }

  /** A heap flag given on the command line is the operator's: the server leaves it as given. */
  @Test
  void heapFlagsOnTheCommandLineWin() throws Exception {
    List<String> arguments = new java.util.ArrayList<>(List.of("-XX:MaxHeapFreeRatio=50"));
    arguments.addAll(JAR);
    try (ServerProcess server =
        ServerProcess.java(
            arguments, Map.of("PORT", "0", "CANVAS_AGENT_HEAP_RETURN_IDLE_MS", "0"))) {
      String footprint = server.awaitLine(Pattern.compile(".*heap\\.footprint.*"));
      assertTrue(footprint.contains("MaxHeapFreeRatio=\"50 (VM_CREATION)\""), footprint);
      assertTrue(footprint.contains("MinHeapFreeRatio=\"10 (MANAGEMENT)\""), footprint);
      assertTrue(footprint.contains("G1PeriodicGCInterval=\"0 "), footprint);
      server.awaitStartedPort();
      server.terminate();
      assertEquals(0, server.awaitExit(), "a drained stop exits 0");
    }
  }

  /** The documented {@code java -jar target/canvas-agent.jar mint-token ...}: a token signed with the secret, or exit 2. */
  @Test
  void theJarMintsADevelopmentToken(Vertx vertx) throws Exception {
    Map<String, String> env = Map.of("CANVAS_AGENT_JWT_SECRET", TestTokens.SECRET);
    List<String> mint =
        List.of(
            "-jar",
            "target/canvas-agent.jar",
            "mint-token",
            "--sub",
            "dev",
            "--room",
            "demo",
            "--role",
            "viewer");
    String token;
    try (ServerProcess command = ServerProcess.java(mint, env)) {
      assertEquals(0, command.awaitExit());
      List<String> lines =
          command
              .remainingOutput()
              .lines()
              .filter(line -> line.matches("[\\w-]+\\.[\\w-]+\\.[\\w-]+"))
              .toList();
      assertEquals(1, lines.size(), lines.toString());
      token = lines.get(0);
    }
    Grant grant =
        Await.result(AccessTokens.create(vertx, TestTokens.auth(TestTokens.SECRET)).verify(token));
    assertEquals("dev", grant.subject());
    assertEquals(Set.of("demo"), grant.rooms());
    assertEquals(Role.VIEWER, grant.role());
    try (ServerProcess command =
        ServerProcess.java(
            List.of(
                "-jar", "target/canvas-agent.jar", "mint-token", "--sub", "dev", "--role", "owner"),
            env)) {
      assertEquals(2, command.awaitExit());
      assertTrue(command.remainingOutput().contains("--role must be viewer, editor or admin"));
    }
  }

  @Test
  void theJarRunsAgainstPostgres(Vertx vertx) throws Exception {
    DatabaseConfig database = TestDatabase.freshSchema();
    Map<String, String> env =
        Map.of(
            "PORT",
            "0",
            "DATABASE_URL",
            "postgresql://"
                + database.user()
                + "@"
                + database.host()
                + ":"
                + database.port()
                + "/"
                + database.database(),
            "PGPASSWORD",
            database.password(),
            "CANVAS_AGENT_DB_SCHEMA",
            database.schema());
    try (ServerProcess server = ServerProcess.java(JAR, env)) {
      int port = server.awaitStartedPort();
      SseClient sse = Await.result(SseClient.connect(vertx, port, "/api/rooms/jar/events"));
      JsonObject accepted =
          Await.result(
                  WebClient.create(vertx)
                      .post(port, "127.0.0.1", "/api/canvas-agent/run")
                      .sendJsonObject(
                          new JsonObject().put("roomId", "jar").put("message", "from the jar")))
              .bodyAsJsonObject();
      String sessionId = accepted.getString("sessionId");
      List<SseEvent> events =
          Await.result(
              sse.awaitEvent(
                  event ->
                      event.event().equals("agent:status")
                          && event.data().getString("sessionId").equals(sessionId)
                          && event.data().getString("state").equals("done")));
      // Partial envelopes (on by default) commit nothing: one revision per final envelope.
      long envelopes =
          events.stream()
              .filter(
                  event ->
                      event.event().equals("agent:action")
                          && !event.data().getBoolean("partial", false))
              .count();
      assertTrue(envelopes > 0);
      assertEquals(
          envelopes,
          TestDatabase.queryLong(
              database,
              "SELECT count(*) FROM "
                  + database.schema()
                  + ".canvas_board_revisions WHERE room_id = 'jar'"));
      server.terminate();
      server.awaitLine(Pattern.compile("server\\.stopped"));
      assertEquals(0, server.awaitExit(), "a drained stop exits 0");
    } finally {
      TestDatabase.drop(database);
    }
  }
}
