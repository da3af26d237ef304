package dev.canvasagent.runner.stream;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;

/**
 * One JSON value read as its bytes arrive, on Jackson's non-blocking parser: every byte is fed once,
 * every complete token goes to the sink once, never a re-parse of what came before. The bytes of the
 * token still being written are kept aside so that a string in progress can be shown as far as it
 * is written ({@link #pendingString}). Reading stops where the value ends; what follows is the caller's.
 */
final class JsonFragmentTokenizer {
  /** Receives each complete token while the parser stands on it. */
  interface TokenSink {
    void token(JsonToken token, JsonParser parser) throws IOException;
  }

  private static final JsonFactory JSON = new JsonFactory();

  private final TokenSink sink;
  private final JsonParser parser;
  private final ByteArrayFeeder feeder;
  private final PendingStringDecoder pending = new PendingStringDecoder();
  private long fed;
  private long tokenEnd;
  private JsonToken lastToken;
  private boolean ended;

  /** The bytes {@code [tailBase, tailBase + tailLength)}: those after the last complete token. */
  private byte[] tail = new byte[64];

  private int tailLength;
  private long tailBase;
  private long tailBytesCopied;
  private long tokens;

  JsonFragmentTokenizer(TokenSink sink) {
    this.sink = sink;
    try {
      this.parser = JSON.createNonBlockingByteArrayParser();
    } catch (IOException e) {
      throw new IllegalStateException("Jackson could not make a non-blocking parser", e);
    }
    this.feeder = (ByteArrayFeeder) parser.getNonBlockingInputFeeder();
  }

  /**
   * Reads {@code bytes[offset, offset + length)}. Returns how many of them belong to the value: all,
   * unless the value ended among them (the rest is not read).
   *
   * @throws MalformedActions when the bytes are not JSON, naming the problem and its byte offset
   */
  int feed(byte[] bytes, int offset, int length) {
    if (ended) {
      return 0;
    }
    long chunkBase = fed;
    try {
      feeder.feedInput(bytes, offset, offset + length);
      fed += length;
      JsonToken token;
      while (!ended && (token = parser.nextToken()) != JsonToken.NOT_AVAILABLE && token != null) {
        tokens++;
        lastToken = token;
        tokenEnd = parser.currentLocation().getByteOffset();
        sink.token(token, parser);
        ended = parser.getParsingContext().inRoot() && !token.isStructStart();
      }
    } catch (MalformedActions malformed) {
      throw malformed;
    } catch (IOException | RuntimeException e) {
      throw new MalformedActions(describe(e));
    }
    if (ended) {
      tailLength = 0;
      return (int) (tokenEnd - chunkBase);
    }
    keepTail(bytes, offset, length, chunkBase);
    return length;
  }

  private String describe(Exception e) {
    String message =
        e instanceof com.fasterxml.jackson.core.JacksonException jackson
            ? jackson.getOriginalMessage()
            : String.valueOf(e.getMessage());
    return "invalid JSON near byte "
        + Math.max(tokenEnd, parser.currentLocation().getByteOffset())
        + ": "
        + message;
  }

  /** Keeps the bytes after the last complete token: the start of the one being written. */
  private void keepTail(byte[] bytes, int offset, int length, long chunkBase) {
    if (tokenEnd >= chunkBase) {
      tailLength = 0;
      tailBase = tokenEnd;
      int skip = (int) (tokenEnd - chunkBase);
      append(bytes, offset + skip, length - skip);
      return;
    }
    int drop = (int) (tokenEnd - tailBase);
    if (drop > 0) {
      System.arraycopy(tail, drop, tail, 0, tailLength - drop);
      tailBytesCopied += tailLength - drop;
      tailLength -= drop;
      tailBase = tokenEnd;
    }
    append(bytes, offset, length);
  }

  private void append(byte[] bytes, int offset, int length) {
    if (tailLength + length > tail.length) {
      tail = Arrays.copyOf(tail, Math.max(tail.length * 2, tailLength + length));
    }
    System.arraycopy(bytes, offset, tail, tailLength, length);
    tailLength += length;
    tailBytesCopied += length;
  }

  /** The string being written where a value goes, decoded as far as it can be; empty otherwise. */
  Optional<String> pendingString() {
    if (ended || tailLength == 0 || !atValuePosition()) {
      return Optional.empty();
    }
    return pending.decode(tailBase, tail, tailLength);
  }

  private boolean atValuePosition() {
    JsonStreamContext context = parser.getParsingContext();
    return context.inArray() || context.inRoot() || lastToken == JsonToken.FIELD_NAME;
  }

  /** Whether the value is complete. */
  boolean ended() {
    return ended;
  }

  long bytesFed() {
    return fed;
  }

  long tokens() {
    return tokens;
  }

  /** Bytes touched besides the parser's own single pass: kept aside for the pending token, or decoded. */
  long extraBytesVisited() {
    return tailBytesCopied + pending.bytesVisited();
  }
}
