package dev.canvasagent.runner.stream;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.Optional;

/**
 * The arguments of one tool call (one action, the tool's name its verb), read fragment by fragment
 * as the provider streams them, so that the params written so far can go out as a partial action.
 */
public final class ToolCallArgumentsReader {
  private final String name;
  private final Utf8Fragments utf8 = new Utf8Fragments();
  private final PartialValueBuilder builder = new PartialValueBuilder();
  private final JsonFragmentTokenizer tokenizer = new JsonFragmentTokenizer(this::token);

  public ToolCallArgumentsReader(String name) {
    this.name = name;
  }

  public String name() {
    return name;
  }

  /**
   * Reads the next fragment of argument text.
   *
   * @throws MalformedActions when the arguments are not a JSON object
   */
  public void feed(String fragment) {
    byte[] bytes = utf8.encode(fragment);
    feed(bytes, 0, bytes.length);
  }

  /** Reads the next bytes of UTF-8 argument text (a fragment may end inside a character). */
  public void feed(byte[] bytes, int offset, int length) {
    tokenizer.feed(bytes, offset, length);
  }

  private void token(JsonToken token, JsonParser parser) throws IOException {
    if (!builder.started() && token != JsonToken.START_OBJECT) {
      throw new MalformedActions("the arguments of " + name + " are not a JSON object");
    }
    builder.token(token, parser);
  }

  /**
   * The params written so far: complete values, and the string in progress unless it is an enum of
   * this verb ({@code enums}); {@code {}} before the object opened.
   */
  public JsonObject snapshot(EnumFields enums) {
    Object value = builder.snapshot(tokenizer.pendingString(), path -> enums.heldBack(name, path));
    return value == null ? new JsonObject() : (JsonObject) value;
  }

  /** The whole arguments object, once its closing brace came. */
  public Optional<JsonObject> arguments() {
    return builder.complete() ? Optional.of((JsonObject) builder.value()) : Optional.empty();
  }

  long bytesFed() {
    return tokenizer.bytesFed();
  }

  long extraBytesVisited() {
    return tokenizer.extraBytesVisited();
  }
}
