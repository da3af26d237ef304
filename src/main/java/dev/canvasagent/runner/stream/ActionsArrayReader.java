package dev.canvasagent.runner.stream;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The actions a model writes as text instead of tool calls, read as the text streams: {@code
 * {"actions":[{"name":"create_shape","params":{...}}, ...]}}, the tldraw starter kit's {@code
 * {"actions":[{"_type":"create_shape", ...params}]}}, or a bare array of either. Prose before the
 * JSON (a sentence, a {@code ```json} fence) is kept as prose; the JSON starts at a {@code {} whose
 * first key is {@code "actions"}, or a {@code [} whose first element's first key is {@code "name"}
 * or {@code "_type"}. What follows the JSON is prose again, and never read as actions.
 *
 * <p>Each action is returned the moment its closing brace arrives, several from one fragment when
 * one fragment completes several; the action being written can be looked at with {@link #partial}.
 * JSON that cannot be read stops the reader with a {@link #problem}; the actions completed before it
 * are still returned.
 */
public final class ActionsArrayReader {
  static final int MAX_PROSE_BYTES = 64 * 1024;
  private static final int MAX_LOOKAHEAD = 64;

  /** How the JSON may start; a space stands for any whitespace. */
  private static final List<byte[]> OPENINGS =
      List.of(
          "{ \"actions\"".getBytes(StandardCharsets.US_ASCII),
          "[ { \"name\"".getBytes(StandardCharsets.US_ASCII),
          "[ { \"_type\"".getBytes(StandardCharsets.US_ASCII));

  private static final Pattern OPENING_FENCE = Pattern.compile("```[A-Za-z]*\\s*$");
  private static final Pattern CLOSING_FENCE = Pattern.compile("^\\s*```");

  private enum Phase {
    PROSE,
    JSON,
    AFTER
  }

  private enum Opening {
    MATCH,
    MORE,
    MISMATCH
  }

  /** Where the reader stands in the JSON around the actions. */
  private enum Frame {
    START,
    ROOT_KEYS,
    ACTIONS_NEXT,
    ACTIONS,
    SKIPPING,
    DONE
  }

  private final Utf8Fragments utf8 = new Utf8Fragments();
  private final JsonFragmentTokenizer tokenizer = new JsonFragmentTokenizer(this::token);
  private final ByteArrayOutputStream before = new ByteArrayOutputStream();
  private final ByteArrayOutputStream after = new ByteArrayOutputStream();
  private final byte[] lookahead = new byte[MAX_LOOKAHEAD];
  private int lookaheadLength;
  private Phase phase = Phase.PROSE;
  private Frame frame = Frame.START;
  private boolean rootIsArray;
  private int skipDepth;
  private PartialValueBuilder element;
  private int nextIndex;
  private List<StreamedAction> completed = new ArrayList<>();
  private String problem;

  /**
   * Reads the next text fragment and returns the actions it completed, in order. After a {@link
   * #problem} nothing more is read.
   */
  public List<StreamedAction> feed(String fragment) {
    byte[] bytes = utf8.encode(fragment);
    return feed(bytes, 0, bytes.length);
  }

  /** As {@link #feed(String)}, for UTF-8 bytes (a fragment may end inside a character). */
  public List<StreamedAction> feed(byte[] bytes, int offset, int length) {
    if (problem == null) {
      try {
        consume(bytes, offset, length);
      } catch (MalformedActions malformed) {
        problem = malformed.getMessage();
        element = null;
      }
    }
    List<StreamedAction> done = completed;
    completed = new ArrayList<>();
    return done;
  }

  private void consume(byte[] bytes, int offset, int length) {
    int i = offset;
    int end = offset + length;
    while (i < end) {
      switch (phase) {
        case AFTER -> {
          keep(after, bytes, i, end - i);
          i = end;
        }
        case JSON -> {
          i += tokenizer.feed(bytes, i, end - i);
          if (tokenizer.ended()) {
            phase = Phase.AFTER;
          }
        }
        case PROSE -> {
          if (lookaheadLength == 0) {
            int start = i;
            while (i < end && bytes[i] != '{' && bytes[i] != '[') {
              i++;
            }
            keep(before, bytes, start, i - start);
            if (i == end) {
              return;
            }
          }
          lookahead[lookaheadLength++] = bytes[i++];
          Opening opening = opening();
          if (opening == Opening.MATCH) {
            byte[] start = Arrays.copyOf(lookahead, lookaheadLength);
            lookaheadLength = 0;
            phase = Phase.JSON;
            tokenizer.feed(start, 0, start.length);
          } else if (opening == Opening.MISMATCH) {
            // The bracket was prose; what followed it is looked at again, it may hold the real
            // start.
            byte[] rest = Arrays.copyOfRange(lookahead, 1, lookaheadLength);
            keep(before, lookahead, 0, 1);
            lookaheadLength = 0;
            consume(rest, 0, rest.length);
          }
        }
      }
    }
  }

  private Opening opening() {
    if (lookaheadLength == MAX_LOOKAHEAD) {
      return Opening.MISMATCH;
    }
    boolean more = false;
    for (byte[] pattern : OPENINGS) {
      Opening match = matches(pattern);
      if (match == Opening.MATCH) {
        return match;
      }
      more |= match == Opening.MORE;
    }
    return more ? Opening.MORE : Opening.MISMATCH;
  }

  private Opening matches(byte[] pattern) {
    int p = 0;
    for (int k = 0; k < lookaheadLength; ) {
      if (p == pattern.length) {
        return Opening.MATCH;
      }
      if (pattern[p] == ' ') {
        if (isWhitespace(lookahead[k])) {
          k++;
        } else {
          p++;
        }
        continue;
      }
      if (pattern[p] != lookahead[k]) {
        return Opening.MISMATCH;
      }
      p++;
      k++;
    }
    return p == pattern.length ? Opening.MATCH : Opening.MORE;
  }

  private static boolean isWhitespace(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r';
  }

  private static void keep(ByteArrayOutputStream prose, byte[] bytes, int offset, int length) {
    int room = MAX_PROSE_BYTES - prose.size();
    if (room > 0) {
      prose.write(bytes, offset, Math.min(room, length));
    }
  }

  private void token(JsonToken token, JsonParser parser) throws IOException {
    if (element != null) {
      element.token(token, parser);
      if (element.complete()) {
        completed.add(action(nextIndex++, (JsonObject) element.value()));
        element = null;
      }
      return;
    }
    switch (frame) {
      case START -> {
        rootIsArray = token == JsonToken.START_ARRAY;
        frame = rootIsArray ? Frame.ACTIONS : Frame.ROOT_KEYS;
      }
      case ROOT_KEYS -> {
        if (token == JsonToken.END_OBJECT) {
          frame = Frame.DONE;
        } else {
          frame = "actions".equals(parser.currentName()) ? Frame.ACTIONS_NEXT : Frame.SKIPPING;
          skipDepth = 0;
        }
      }
      case ACTIONS_NEXT -> {
        if (token != JsonToken.START_ARRAY) {
          throw new MalformedActions("\"actions\" is not an array");
        }
        frame = Frame.ACTIONS;
      }
      case ACTIONS -> {
        if (token == JsonToken.END_ARRAY) {
          frame = rootIsArray ? Frame.DONE : Frame.ROOT_KEYS;
        } else if (token == JsonToken.START_OBJECT) {
          element = new PartialValueBuilder();
          element.token(token, parser);
        } else {
          throw new MalformedActions("actions[" + nextIndex + "] is not an object");
        }
      }
      case SKIPPING -> {
        if (token.isStructStart()) {
          skipDepth++;
        } else if (token.isStructEnd()) {
          skipDepth--;
        }
        if (skipDepth == 0) {
          frame = Frame.ROOT_KEYS;
        }
      }
      case DONE -> {}
    }
  }

  /** An action object, in either form, as a verb and its params. */
  private static StreamedAction action(int index, JsonObject element) {
    Object type = element.getValue("_type");
    if (type != null) {
      if (!(type instanceof String verb)) {
        throw new MalformedActions("actions[" + index + "]._type is not a string");
      }
      JsonObject params = element.copy();
      params.remove("_type");
      return new StreamedAction(index, verb, params);
    }
    if (!(element.getValue("name") instanceof String verb)) {
      throw new MalformedActions(
          "actions[" + index + "] has neither a \"name\" nor a \"_type\" string");
    }
    Object params = element.getValue("params");
    if (params != null && !(params instanceof JsonObject)) {
      throw new MalformedActions("actions[" + index + "].params is not an object");
    }
    return new StreamedAction(index, verb, params == null ? new JsonObject() : (JsonObject) params);
  }

  /** The action being written, once its verb is known: its index and verb (cheap: no snapshot made). */
  public record Writing(int index, String verb) {}

  public Optional<Writing> writing() {
    if (element == null || problem != null) {
      return Optional.empty();
    }
    JsonObject live = (JsonObject) element.value();
    Object verb = live.getValue("_type") instanceof String typed ? typed : live.getValue("name");
    return verb instanceof String name
        ? Optional.of(new Writing(nextIndex, name))
        : Optional.empty();
  }

  /**
   * The action being written, as far as it is: once its verb is known, its params parsed so far, the
   * string in progress included unless it is an enum of the verb ({@code enums}).
   */
  public Optional<StreamedAction> partial(EnumFields enums) {
    if (element == null || problem != null) {
      return Optional.empty();
    }
    JsonObject live = (JsonObject) element.value();
    boolean typed = live.getValue("_type") instanceof String;
    Object verbValue = typed ? live.getValue("_type") : live.getValue("name");
    if (!(verbValue instanceof String verb)) {
      return Optional.empty();
    }
    Predicate<List<Object>> heldBack =
        typed
            ? path -> "_type".equals(path.get(0)) || enums.heldBack(verb, path)
            : path ->
                path.size() < 2
                    || !"params".equals(path.get(0))
                    || enums.heldBack(verb, path.subList(1, path.size()));
    JsonObject snapshot = (JsonObject) element.snapshot(tokenizer.pendingString(), heldBack);
    JsonObject params;
    if (typed) {
      snapshot.remove("_type");
      params = snapshot;
    } else {
      params =
          snapshot.getValue("params") instanceof JsonObject written ? written : new JsonObject();
    }
    return Optional.of(new StreamedAction(nextIndex, verb, params));
  }

  /** The text is over: a text that ended inside the actions JSON is a {@link #problem}. */
  public void finish() {
    if (phase == Phase.JSON && problem == null) {
      problem =
          "the answer ended inside its actions JSON, after " + nextIndex + " complete action(s)";
    }
    keep(before, lookahead, 0, lookaheadLength);
    lookaheadLength = 0;
  }

  /** What makes the actions unreadable, naming it and where; empty while all is well. */
  public Optional<String> problem() {
    return Optional.ofNullable(problem);
  }

  /** Whether the text held an actions JSON (so far). */
  public boolean sawActions() {
    return phase != Phase.PROSE;
  }

  /** The text outside the actions JSON, a code fence around it left out. */
  public String prose() {
    String head = before.toString(StandardCharsets.UTF_8);
    String tail = after.toString(StandardCharsets.UTF_8);
    if (sawActions()) {
      head = OPENING_FENCE.matcher(head.stripTrailing()).replaceFirst("");
      tail = CLOSING_FENCE.matcher(tail).replaceFirst("");
    }
    head = head.strip();
    tail = tail.strip();
    return head.isEmpty() || tail.isEmpty() ? head + tail : head + "\n\n" + tail;
  }

  long bytesFed() {
    return tokenizer.bytesFed();
  }

  long extraBytesVisited() {
    return tokenizer.extraBytesVisited();
  }

  long tokens() {
    return tokenizer.tokens();
  }
}
