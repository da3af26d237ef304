package dev.canvasagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.AppConfig;
import dev.canvasagent.support.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What providers and proxies are known to quote loses its credentials; the rest of the text, which the
 * operator needs to tell what went wrong, stays.
 */
class CredentialRedactorTest {
  static final String ANTHROPIC_KEY = "sk-ant-api03-Zq8Xw2Lr5Tn7Vb1Ym4Kc6Hd9Gf3Js0PaXy_Wv-Ut";
  static final String OPENAI_KEY = "sk-proj-Rt6Uy1Io8Pa3Sd5Fg7Hj2Kl4Zx9Cv0Bn";
  static final String GEMINI_KEY = "AIzaSyD3x7Kq9Lw2Mv5Nb8Pc1Rd4Se6Tf0Ug7Vh";
  static final String JWT =
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJlZCIsInJvbGUiOiJlZGl0b3IifQ.3q2-7AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";

  private final CredentialRedactor patterns = CredentialRedactor.patternsOnly();

  @ParameterizedTest
  @ValueSource(
      strings = {
        "invalid x-api-key: " + ANTHROPIC_KEY,
        "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key: "
            + ANTHROPIC_KEY
            + "\"}}",
        "Incorrect API key provided: "
            + OPENAI_KEY
            + ". You can find your API key at https://platform.openai.com/account/api-keys.",
        "API key not valid. Please pass a valid API key. (key=" + GEMINI_KEY + ")",
        "<html><body>401 Unauthorized: Authorization: Bearer " + OPENAI_KEY + "</body></html>",
        "upstream said: Bearer abcdefghijklmnop0123456789",
        "token " + JWT + " has expired",
        "proxy: password=Hunter2Hunter2 rejected",
        "forwarded with api_key: \"plainlowercasesecretvalue\"",
        "x-goog-api-key: " + GEMINI_KEY,
        "gateway token Xy7pQ2rT9vW4mN8kL3sD6fG1hJ5 refused",
        "hex credential 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 refused"
      })
  void credentialsShapedLikeOneAreRemoved(String text) {
    String redacted = patterns.redact(text);

    assertTrue(redacted.contains(CredentialRedactor.MARK), redacted);
    for (String secret :
        List.of(
            ANTHROPIC_KEY,
            OPENAI_KEY,
            GEMINI_KEY,
            JWT,
            "abcdefghijklmnop0123456789",
            "Hunter2Hunter2",
            "plainlowercasesecretvalue",
            "Xy7pQ2rT9vW4mN8kL3sD6fG1hJ5",
            "9f86d081884c7d659a2feaa0c55ad015")) {
      assertFalse(redacted.contains(secret), redacted);
      assertFalse(
          redacted.contains(secret.substring(secret.length() - CredentialRedactor.TAIL_CHARS)),
          redacted);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Overloaded",
        "anthropic answered HTTP 529: overloaded_error",
        "model: claude-3-5-sonnet-20241022 not found",
        "The model `gpt-4o-mini-2024-07-18` does not exist or you do not have access to it.",
        "Please reduce the length of the messages; max_tokens: 4096 is too large",
        "request 1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed failed at /v1/chat/completions",
        "Resource has been exhausted (e.g. check quota). RESOURCE_EXHAUSTED",
        "This request needs basic authentication and a bearer token"
      })
  void ordinaryProviderTextStays(String text) {
    assertEquals(text, patterns.redact(text));
  }

  @Test
  void theConfiguredSecretsAreRemovedWhateverTheyLookLike() {
    AppConfig config =
        TestServer.config(
            Map.of(
                "ANTHROPIC_API_KEY", "plain-anthropic-key",
                "OPENAI_COMPATIBLE_BASE_URL", "http://127.0.0.1:11434/v1",
                "OPENAI_COMPATIBLE_API_KEY", "ollama",
                "CANVAS_AGENT_JWT_SECRET", "jwt secret that is only words and spaces",
                "DATABASE_URL",
                    "postgresql://canvas:correct-horse-battery@db.example.com:5432/canvas"));
    CredentialRedactor redactor = CredentialRedactor.of(config);

    assertEquals(
        "bad key <redacted> from <redacted>; <redacted>; db <redacted>!",
        redactor.redact(
            "bad key plain-anthropic-key from ollama; jwt secret that is only words and spaces; db correct-horse-battery!"));
  }

  @Test
  void aConfiguredKeysEndIsRemovedWhereAProviderMaskedTheRest() {
    String key = "gateway-0123456789-ABCDEFGHwxyz1234";
    CredentialRedactor redactor = new CredentialRedactor(List.of(key));

    String redacted =
        redactor.redact("Incorrect API key provided: gate****************************wxyz1234.");

    assertFalse(redacted.contains("wxyz1234"), redacted);
    assertTrue(redacted.startsWith("Incorrect API key provided: <redacted>"), redacted);
  }

  @ParameterizedTest
  @CsvSource({"abc, abc", "'', ''"})
  void shortConfiguredValuesAreLeftToThePatterns(String secret, String text) {
    assertEquals(text, new CredentialRedactor(List.of(secret)).redact(text));
  }

  @Test
  void nothingBecomesNothing() {
    assertNull(patterns.redact(null));
    assertEquals("", patterns.redact(""));
  }
}
