package dev.canvasagent.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tokens whose signature is right but whose times or header are not usable: an {@code exp} that is
 * not a whole number of seconds, that would overflow as milliseconds, or that lies past the longest
 * lifetime accepted; and a {@code crit} header naming an extension (RFC 7515 §4.1.11). The payloads
 * are written by hand, as an issuer could write them: {@code 1e999} is valid JSON but no JSON library
 * writes it.
 */
@ExtendWith(VertxExtension.class)
class TokenTimesAndHeaderTest {
  static final long DAY = 24 * 3600;
  static final String HEADER = "{\"alg\":\"HS256\",\"typ\":\"JWT\"}";

  AccessTokens tokens;
  long now;

  @BeforeEach
  void setUp(Vertx vertx) {
    tokens =
        AccessTokens.create(
            vertx,
            TestTokens.auth(
                Map.of(
                    "CANVAS_AGENT_JWT_SECRET",
                    TestTokens.SECRET,
                    "CANVAS_AGENT_JWT_MAX_LIFETIME_SECONDS",
                    String.valueOf(7 * DAY))));
    now = System.currentTimeMillis() / 1000;
  }

  static String sign(String header, String payload) {
    Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
    String signingInput =
        base64.encodeToString(header.getBytes(StandardCharsets.UTF_8))
            + "."
            + base64.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(TestTokens.SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return signingInput
          + "."
          + base64.encodeToString(mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII)));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static String payload(String exp) {
    return "{\"sub\":\"alice\",\"role\":\"editor\",\"rooms\":[\"demo\"],\"exp\":" + exp + "}";
  }

  FailureCode refusal(String token) {
    return Failure.of(Await.failure(tokens.verify(token))).code();
  }

  @Test
  void aWellFormedTokenWithinTheLifetimeIsAccepted() {
    Grant grant = Await.result(tokens.verify(sign(HEADER, payload(String.valueOf(now + DAY)))));
    assertEquals((now + DAY) * 1000, grant.expiresAtMillis());
    assertEquals(
        (now + DAY) * 1000,
        Await.result(tokens.verify(sign(HEADER, payload((now + DAY) + ".0")))).expiresAtMillis(),
        "a whole number written with a fraction part is still a whole number");
  }

  @ParameterizedTest(name = "exp {0}")
  @ValueSource(
      strings = {
        "1e300",
        "1e999",
        "-1e999",
        "9300000000000000",
        "99999999999999999999999",
        "\"2030-01-01\"",
        "true",
        "null",
        "-5"
      })
  void anExpThatIsNotAWholeNumberOfSecondsInRangeIsRefused(String exp) {
    assertEquals(FailureCode.UNAUTHENTICATED, refusal(sign(HEADER, payload(exp))));
  }

  @Test
  void aFractionalExpIsRefused() {
    assertEquals(FailureCode.UNAUTHENTICATED, refusal(sign(HEADER, payload((now + DAY) + ".5"))));
  }

  @Test
  void aTokenValidForLongerThanTheLongestLifetimeIsRefusedAndOneWithinItIsNot() {
    assertEquals(
        FailureCode.UNAUTHENTICATED, refusal(sign(HEADER, payload(String.valueOf(now + 8 * DAY)))));
    Throwable tooLong =
        Await.failure(tokens.verify(sign(HEADER, payload(String.valueOf(now + 8 * DAY)))));
    assertTrue(
        tooLong.getMessage().contains("CANVAS_AGENT_JWT_MAX_LIFETIME_SECONDS"),
        tooLong.getMessage());
    Await.result(tokens.verify(sign(HEADER, payload(String.valueOf(now + 7 * DAY)))));
  }

  @Test
  void nbfAndIatMustBeWholeNumbersToo() {
    String exp = String.valueOf(now + DAY);
    for (String claim : new String[] {"nbf", "iat"}) {
      String odd =
          "{\"sub\":\"alice\",\"role\":\"editor\",\"exp\":" + exp + ",\"" + claim + "\":1e999}";
      assertEquals(FailureCode.UNAUTHENTICATED, refusal(sign(HEADER, odd)), claim);
    }
  }

  @Test
  void aHeaderWithCritIsRefusedWhateverItNames() {
    String payload = payload(String.valueOf(now + DAY));
    for (String crit : new String[] {"[\"urn:example:bound\"]", "[\"exp\"]", "[]", "\"b64\""}) {
      String header =
          "{\"alg\":\"HS256\",\"typ\":\"JWT\",\"crit\":" + crit + ",\"urn:example:bound\":true}";
      Throwable refused = Await.failure(tokens.verify(sign(header, payload)));
      assertEquals(FailureCode.UNAUTHENTICATED, Failure.of(refused).code(), crit);
      assertTrue(refused.getMessage().contains("crit"), refused.getMessage());
    }
  }
}
