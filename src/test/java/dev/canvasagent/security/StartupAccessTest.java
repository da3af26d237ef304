package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.canvasagent.CanvasAgent;
import dev.canvasagent.auth.MintToken;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.ConfigException;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * Safe defaults at startup: without a secret the server serves loopback only (auth off, said once in
 * the log), and refuses any other interface; with a secret or a public key it serves anywhere and
 * asks every {@code /api} request for a token. {@code mint-token} prints a token the server accepts
 * and exits 2 on anything it cannot use.
 */
@ExtendWith(VertxExtension.class)
class StartupAccessTest {
  static final Map<String, String> SECRET = Map.of("CANVAS_AGENT_JWT_SECRET", TestTokens.SECRET);

  @ParameterizedTest(name = "HOST={0}")
  @ValueSource(
      strings = {
        "0.0.0.0",
        "::",
        "[::]",
        "192.168.1.10",
        "10.0.0.1",
        "example.com",
        "localhost.example.com"
      })
  void anyInterfaceButLoopbackWithoutASecretRefusesToStart(String host) {
    ConfigException refused =
        assertThrows(ConfigException.class, () -> TestServer.config(Map.of("HOST", host)));
    assertTrue(
        refused.getMessage().startsWith("bad configuration: HOST = ")
            && refused.getMessage().contains("CANVAS_AGENT_JWT_SECRET"),
        refused.getMessage());
  }

  @ParameterizedTest(name = "HOST={0}")
  @ValueSource(strings = {"127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"})
  void loopbackWithoutASecretStartsWithAuthOff(String host) {
    assertFalse(TestServer.config(Map.of("HOST", host)).auth().enabled());
  }

  @Test
  void withASecretAnyInterfaceServesAndEveryApiRequestNeedsAToken(Vertx vertx) {
    TestServer server =
        TestServer.start(
            vertx,
            TestServer.config(
                Map.of("HOST", "0.0.0.0", "CANVAS_AGENT_JWT_SECRET", TestTokens.SECRET)));
    try {
      assertEquals(
          200, server.get("/health").statusCode(), "a load balancer's probe carries no token");
      assertEquals(401, server.get("/api/catalog").statusCode());
      HttpResponse<Buffer> catalog =
          Await.result(
              server
                  .http()
                  .get("/api/catalog")
                  .putHeader(
                      "authorization", TestTokens.bearer(new TestTokens(vertx).viewer("any")))
                  .send());
      assertEquals(200, catalog.statusCode(), catalog.bodyAsString());
    } finally {
      Await.result(server.stop());
    }
  }

  /** What the {@code dev.canvasagent} loggers say while {@code body} runs. */
  static List<ILoggingEvent> logged(Runnable body) {
    Logger logger = (Logger) LoggerFactory.getLogger("dev.canvasagent");
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try {
      body.run();
    } finally {
      logger.detachAppender(appender);
    }
    return List.copyOf(appender.list);
  }

  @Test
  void withAuthOffTheStartupLogSaysSoOnceAndWithASecretNot(Vertx vertx) {
    List<ILoggingEvent> off =
        logged(() -> Await.result(TestServer.start(vertx, TestServer.config(Map.of())).stop()));
    List<ILoggingEvent> said =
        off.stream().filter(event -> event.getMessage().startsWith("auth.off")).toList();
    assertEquals(
        1, said.size(), off.stream().map(ILoggingEvent::getFormattedMessage).toList().toString());
    assertEquals(Level.WARN, said.get(0).getLevel());

    List<ILoggingEvent> on =
        logged(() -> Await.result(TestServer.start(vertx, TestServer.config(SECRET)).stop()));
    assertEquals(
        List.of(), on.stream().filter(event -> event.getMessage().startsWith("auth.off")).toList());
    assertTrue(
        on.stream()
            .noneMatch(
                event ->
                    event.getFormattedMessage().contains(TestTokens.SECRET)
                        || String.valueOf(event.getKeyValuePairs()).contains(TestTokens.SECRET)),
        "the secret is never logged");
  }

  static String pem(String kind, byte[] der) {
    return "-----BEGIN "
        + kind
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END "
        + kind
        + "-----\n";
  }

  @Test
  void aPublicKeyVerifiesTheIssuersTokensAndNothingSignedWithTheKeyAsASecret(Vertx vertx)
      throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    KeyPair keys = generator.generateKeyPair();
    String publicKey = pem("PUBLIC KEY", keys.getPublic().getEncoded());
    TestServer server =
        TestServer.start(
            vertx,
            TestServer.config(
                Map.of(
                    "HOST",
                    "0.0.0.0",
                    "CANVAS_AGENT_JWT_PUBLIC_KEY",
                    publicKey,
                    "CANVAS_AGENT_JWT_ALGORITHM",
                    "ES256")));
    try {
      JsonObject claims =
          new JsonObject()
              .put("sub", "issued")
              .put("role", "viewer")
              .put("rooms", new JsonArray().add("keyed"))
              .put("exp", System.currentTimeMillis() / 1000 + 600);
      String issued =
          JWTAuth.create(
                  vertx,
                  new JWTAuthOptions()
                      .addPubSecKey(
                          new PubSecKeyOptions()
                              .setAlgorithm("ES256")
                              .setBuffer(pem("PRIVATE KEY", keys.getPrivate().getEncoded()))))
              .generateToken(claims, new JWTOptions().setAlgorithm("ES256"));
      // The public key is public: a token signed with it as an HS256 secret proves nothing.
      String confused =
          JWTAuth.create(
                  vertx,
                  new JWTAuthOptions()
                      .addPubSecKey(
                          new PubSecKeyOptions().setAlgorithm("HS256").setBuffer(publicKey)))
              .generateToken(claims, new JWTOptions().setAlgorithm("HS256"));
      assertEquals(200, board(server, issued));
      assertEquals(401, board(server, confused));
      assertEquals(401, board(server, new TestTokens(vertx).viewer("keyed")));
    } finally {
      Await.result(server.stop());
    }
    // Nor does the server start with a key it cannot read: it would otherwise serve with nothing to
    // check.
    AppConfig unreadable =
        TestServer.config(
            Map.of(
                "HOST",
                "0.0.0.0",
                "CANVAS_AGENT_JWT_PUBLIC_KEY",
                "-----BEGIN PUBLIC KEY-----\nbm90IGEga2V5\n-----END PUBLIC KEY-----",
                "CANVAS_AGENT_JWT_ALGORITHM",
                "ES256"));
    assertTrue(Await.failure(CanvasAgent.start(vertx, unreadable)) instanceof ConfigException);
  }

  static int board(TestServer server, String token) {
    return Await.result(
            server
                .http()
                .get("/api/rooms/keyed/board")
                .putHeader("authorization", TestTokens.bearer(token))
                .send())
        .statusCode();
  }

  /** The exit code of {@code mint-token args}, what it printed, and what it complained of. */
  record Minted(int exit, String out, String err) {}

  static Minted mint(AppConfig config, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        MintToken.run(
            List.of(args),
            config,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Minted(
        exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  static JsonObject claims(String token) {
    return new JsonObject(
        new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8));
  }

  @Test
  void mintTokenPrintsATokenTheServerAccepts(Vertx vertx) {
    AppConfig config = TestServer.config(SECRET);
    Minted editor =
        mint(
            config, "--sub", "alice", "--room", "demo", "--role", "editor", "--doc", "doc-1",
            "--ttl", "120");
    assertEquals(0, editor.exit(), editor.err());
    assertEquals("", editor.err());
    String token = editor.out().strip();
    assertFalse(token.contains("\n"), "one line: " + editor.out());
    JsonObject claims = claims(token);
    assertEquals("alice", claims.getString("sub"));
    assertEquals(new JsonArray().add("demo"), claims.getJsonArray("rooms"));
    assertEquals(new JsonArray().add("doc-1"), claims.getJsonArray("docs"));
    assertEquals("editor", claims.getString("role"));
    assertEquals(120, claims.getLong("exp") - claims.getLong("iat"));

    Minted viewer = mint(config, "--sub", "bo", "--room", "demo", "--role", "viewer");
    assertEquals(
        3600,
        claims(viewer.out().strip()).getLong("exp") - claims(viewer.out().strip()).getLong("iat"),
        "an hour by default");
    Minted everywhere = mint(config, "--sub", "ops", "--room", "*");
    assertEquals(
        "editor", claims(everywhere.out().strip()).getString("role"), "an editor by default");

    TestServer server = TestServer.start(vertx, config);
    try {
      JsonObject run =
          new JsonObject().put("roomId", "demo").put("message", "a box for the roadmap");
      assertEquals(202, post(server, token, run));
      assertEquals(403, post(server, viewer.out().strip(), run));
      assertEquals(403, post(server, token, run.copy().put("roomId", "elsewhere")));
      assertEquals(
          202, post(server, everywhere.out().strip(), run.copy().put("roomId", "elsewhere")));
    } finally {
      Await.result(server.stop());
    }
  }

  static int post(TestServer server, String token, JsonObject run) {
    HttpResponse<Buffer> response =
        Await.result(
            server
                .http()
                .post("/api/canvas-agent/run")
                .putHeader("authorization", TestTokens.bearer(token))
                .sendJsonObject(run));
    return response.statusCode();
  }

  static Stream<List<String>> unusableArguments() {
    return Stream.of(
        List.of(),
        List.of("--sub"),
        List.of("--sub", "alice"),
        List.of("--room", "demo"),
        List.of("--sub", " ", "--room", "demo"),
        List.of("--sub", "alice", "--room", "demo", "--role", "owner"),
        List.of("--sub", "alice", "--room", "demo", "--ttl", "0"),
        List.of("--sub", "alice", "--room", "demo", "--ttl", "an hour"),
        List.of("--sub", "alice", "--room", "demo", "--ttl", "2592001"),
        List.of("--sub", "alice", "--room", "demo", "--room"),
        List.of("--sub", "alice", "--room", "demo", "--admin", "yes"));
  }

  @ParameterizedTest
  @MethodSource("unusableArguments")
  void mintTokenExitsTwoOnArgumentsItCannotUse(List<String> args) {
    Minted refused = mint(TestServer.config(SECRET), args.toArray(String[]::new));
    assertEquals(2, refused.exit(), refused.out());
    assertEquals("", refused.out(), "no token on stdout");
    assertTrue(refused.err().contains("usage: mint-token"), refused.err());
  }

  @Test
  void mintTokenNeedsTheSecretAndSaysHowToUseIt() {
    Minted noSecret = mint(TestServer.config(Map.of()), "--sub", "alice", "--room", "demo");
    assertEquals(2, noSecret.exit());
    assertEquals("", noSecret.out());
    assertTrue(noSecret.err().contains("CANVAS_AGENT_JWT_SECRET"), noSecret.err());
    Minted help = mint(TestServer.config(Map.of()), "--help");
    assertEquals(0, help.exit());
    assertTrue(help.out().startsWith("usage: mint-token"), help.out());
  }
}
