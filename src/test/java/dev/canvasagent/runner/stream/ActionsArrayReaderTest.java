package dev.canvasagent.runner.stream;

import static dev.canvasagent.runner.stream.PartialConsistency.assertConsistent;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import dev.canvasagent.catalog.ActionCatalog;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ActionsArrayReaderTest {
  private static final EnumFields ENUMS = new EnumFields(ActionCatalog.standard());
  private static final String JSON =
      "{\"actions\": [\n"
          + "  {\"name\":\"create_shape\",\"params\":{\"id\":\"a\",\"type\":\"rectangle\",\"x\":0,\"y\":0,"
          + "\"text\":\"Caf\\u00e9 \\\"A\\\" ✓\",\"props\":{\"w\":10,\"h\":20.5,\"color\":\"blue\"}}},\n"
          + "  {\"_type\":\"create_shape\",\"id\":\"b\",\"type\":\"note\",\"x\":5.5,\"y\":-1e1,\"text\":\"😀 \\ud83d\\ude00\"},\n"
          + "  {\"params\":{\"text\":\"nested [1,{\\\"a\\\":[true,false,null]}]\",\"deep\":{\"list\":[[1,2],[3],[]]},\"ok\":true,\"no\":null},\"name\":\"think\"}\n"
          + "], \"note\": {\"ignored\": [1, {\"actions\": []}]}}";
  private static final String ANSWER =
      "Sure — I'll draw it {maybe}. [see] [{x}]\n```json\n"
          + JSON
          + "\n```\nThanks! {\"actions\":[{\"name\":\"ignored\"}]}";
  private static final String PROSE =
      "Sure — I'll draw it {maybe}. [see] [{x}]\n\nThanks! {\"actions\":[{\"name\":\"ignored\"}]}";
  private static final List<StreamedAction> EXPECTED =
      List.of(
          new StreamedAction(
              0,
              "create_shape",
              new JsonObject()
                  .put("id", "a")
                  .put("type", "rectangle")
                  .put("x", 0)
                  .put("y", 0)
                  .put("text", "Café \"A\" ✓")
                  .put("props", new JsonObject().put("w", 10).put("h", 20.5).put("color", "blue"))),
          new StreamedAction(
              1,
              "create_shape",
              new JsonObject()
                  .put("id", "b")
                  .put("type", "note")
                  .put("x", 5.5)
                  .put("y", -10.0)
                  .put("text", "😀 😀")),
          new StreamedAction(
              2,
              "think",
              new JsonObject()
                  .put("text", "nested [1,{\"a\":[true,false,null]}]")
                  .put("deep", new JsonObject().put("list", new JsonArray("[[1,2],[3],[]]")))
                  .put("ok", true)
                  .putNull("no")));

  @Test
  void everyTwoChunkCutOfTheBytesGivesTheSameActionsAndProse() {
    byte[] bytes = ANSWER.getBytes(StandardCharsets.UTF_8);
    for (int cut = 0; cut <= bytes.length; cut++) {
      ActionsArrayReader reader = new ActionsArrayReader();
      List<StreamedAction> actions = new ArrayList<>(reader.feed(bytes, 0, cut));
      reader
          .partial(ENUMS)
          .ifPresent(
              partial ->
                  assertConsistent(
                      partial.name(),
                      partial.params(),
                      EXPECTED.get(partial.index()).params(),
                      ENUMS));
      actions.addAll(reader.feed(bytes, cut, bytes.length - cut));
      reader.finish();
      assertEquals(EXPECTED, actions, "cut at byte " + cut);
      assertEquals(PROSE, reader.prose(), "cut at byte " + cut);
      assertEquals(Optional.empty(), reader.problem());
    }
  }

  @Test
  void byteByByteEachActionComesOutOnceAtItsClosingBraceWithConsistentPartialsBefore() {
    byte[] bytes = ANSWER.getBytes(StandardCharsets.UTF_8);
    ActionsArrayReader reader = new ActionsArrayReader();
    List<StreamedAction> actions = new ArrayList<>();
    int partials = 0;
    for (int i = 0; i < bytes.length; i++) {
      List<StreamedAction> completed = reader.feed(bytes, i, 1);
      if (!completed.isEmpty()) {
        assertEquals(1, completed.size());
        assertEquals('}', bytes[i], "an action completes at its closing brace");
      }
      actions.addAll(completed);
      Optional<StreamedAction> partial = reader.partial(ENUMS);
      if (partial.isPresent()) {
        partials++;
        assertEquals(
            actions.size(),
            partial.get().index(),
            "the partial is the action after the completed ones");
        assertEquals(EXPECTED.get(partial.get().index()).name(), partial.get().name());
        assertConsistent(
            partial.get().name(),
            partial.get().params(),
            EXPECTED.get(partial.get().index()).params(),
            ENUMS);
      }
    }
    reader.finish();
    assertEquals(EXPECTED, actions);
    assertTrue(partials > 100, "partials while the actions were written: " + partials);
  }

  @Test
  void oneChunkThatCompletesSeveralActionsGivesThemAllInOrder() {
    ActionsArrayReader reader = new ActionsArrayReader();
    assertEquals(EXPECTED, reader.feed(ANSWER));
    assertEquals(Optional.empty(), reader.partial(ENUMS));
  }

  @Test
  void everyCutOfTheTextIncludingInsideASurrogatePairGivesTheSameActions() {
    for (int cut = 0; cut <= ANSWER.length(); cut++) {
      ActionsArrayReader reader = new ActionsArrayReader();
      List<StreamedAction> actions = new ArrayList<>(reader.feed(ANSWER.substring(0, cut)));
      actions.addAll(reader.feed(ANSWER.substring(cut)));
      assertEquals(EXPECTED, actions, "cut at char " + cut);
    }
  }

  @Test
  void aBareArrayOfEitherFormIsReadToo() {
    ActionsArrayReader reader = new ActionsArrayReader();
    List<StreamedAction> actions =
        reader.feed(
            "Moving it. [ {\"name\":\"move\",\"params\":{\"shapeId\":\"a\",\"dx\":5}},"
                + "{\"_type\":\"delete_shape\",\"shapeId\":\"b\"} ] done");
    assertEquals(
        List.of(
            new StreamedAction(0, "move", new JsonObject().put("shapeId", "a").put("dx", 5)),
            new StreamedAction(1, "delete_shape", new JsonObject().put("shapeId", "b"))),
        actions);
    assertEquals("Moving it.\n\ndone", reader.prose());
  }

  @Test
  void textWithoutAnActionsJsonIsAllProse() {
    ActionsArrayReader reader = new ActionsArrayReader();
    assertEquals(List.of(), reader.feed("I'd use {\"a\": 1} or [1, 2] or ```json\n{} "));
    assertEquals(List.of(), reader.feed("{\"act"));
    reader.finish();
    assertFalse(reader.sawActions());
    assertEquals(Optional.empty(), reader.problem());
    assertEquals("I'd use {\"a\": 1} or [1, 2] or ```json\n{} {\"act", reader.prose());
  }

  @Test
  void partialsHoldBackEnumsAndHalfNumbersAndShowLabelsAsWritten() {
    ActionsArrayReader reader = new ActionsArrayReader();
    reader.feed("{\"actions\":[{\"name\":\"create_shape\",\"params\":{\"x\":4");
    assertEquals(new JsonObject(), reader.partial(ENUMS).orElseThrow().params());
    reader.feed("0,\"type\":\"ell");
    assertEquals(new JsonObject().put("x", 40), reader.partial(ENUMS).orElseThrow().params());
    reader.feed("ipse\",\"text\":\"Hi th");
    assertEquals(
        new JsonObject().put("x", 40).put("type", "ellipse").put("text", "Hi th"),
        reader.partial(ENUMS).orElseThrow().params());
    reader.feed("ere\"}},{\"_type\":\"align\",\"alignment\":\"cen");
    StreamedAction align = reader.partial(ENUMS).orElseThrow();
    assertEquals(
        new StreamedAction(1, "align", new JsonObject()), align, "a schema enum is held back too");
    reader.feed("ter-vertical\"");
    assertEquals(
        new JsonObject().put("alignment", "center-vertical"),
        reader.partial(ENUMS).orElseThrow().params());
  }

  @Test
  void anActionWithoutItsVerbYetHasNoPartial() {
    ActionsArrayReader reader = new ActionsArrayReader();
    reader.feed("{\"actions\":[{\"params\":{\"text\":\"abc\"},\"name\":\"cre");
    assertEquals(Optional.empty(), reader.writing());
    assertEquals(Optional.empty(), reader.partial(ENUMS));
    reader.feed("ate_shape\"");
    assertEquals(Optional.of(new ActionsArrayReader.Writing(0, "create_shape")), reader.writing());
    assertEquals(new JsonObject().put("text", "abc"), reader.partial(ENUMS).orElseThrow().params());
  }

  @Test
  void malformedJsonStopsTheReaderWithItsReasonAndKeepsWhatCompletedBefore() {
    ActionsArrayReader reader = new ActionsArrayReader();
    List<StreamedAction> actions =
        reader.feed(
            "{\"actions\":[{\"name\":\"move\",\"params\":{\"dx\":1}},"
                + "{\"name\":\"move\",\"params\":{\"dx\":1,,\"dy\":2}}]}");
    assertEquals(List.of(new StreamedAction(0, "move", new JsonObject().put("dx", 1))), actions);
    String problem = reader.problem().orElseThrow();
    assertTrue(problem.startsWith("invalid JSON near byte"), problem);
    assertTrue(problem.contains("Unexpected character (','"), problem);
    assertEquals(
        List.of(),
        reader.feed("{\"name\":\"move\",\"params\":{}}]}"),
        "nothing is read after a problem");
  }

  @Test
  void structuralProblemsAreNamed() {
    assertEquals("\"actions\" is not an array", problemOf("{\"actions\": {\"name\":\"move\"}}"));
    assertEquals(
        "actions[1] is not an object", problemOf("{\"actions\": [{\"name\":\"move\"}, \"move\"]}"));
    assertEquals(
        "actions[0] has neither a \"name\" nor a \"_type\" string",
        problemOf("{\"actions\": [{\"params\":{}}]}"));
    assertEquals(
        "actions[0].params is not an object",
        problemOf("{\"actions\": [{\"name\":\"move\",\"params\":[1]}]}"));
    assertEquals("actions[0]._type is not a string", problemOf("[{\"_type\": 3}]"));
  }

  @Test
  void anAnswerThatEndsInsideTheJsonIsAProblemAfterItsCompleteActions() {
    ActionsArrayReader reader = new ActionsArrayReader();
    assertEquals(
        1,
        reader
            .feed("```json\n{\"actions\":[{\"name\":\"move\",\"params\":{}},{\"name\":\"mo")
            .size());
    reader.finish();
    assertEquals(
        "the answer ended inside its actions JSON, after 1 complete action(s)",
        reader.problem().orElseThrow());
  }

  @Test
  void twoHundredActionsAreReadInOnePassEvenWithAPartialAfterEveryByte() throws IOException {
    StringBuilder json = new StringBuilder("{\"actions\":[");
    for (int i = 0; i < 200; i++) {
      json.append(i == 0 ? "" : ",")
          .append("{\"name\":\"create_shape\",\"params\":{\"id\":\"s")
          .append(i)
          .append("\",\"type\":\"rectangle\",\"x\":")
          .append(i * 40)
          .append(",\"y\":")
          .append(-i * 7.25)
          .append(",\"text\":\"Box nº ")
          .append(i)
          .append(
              " — \\\"quoted\\\" \\u00e9\",\"props\":{\"w\":120,\"h\":80,\"color\":\"blue\",\"fill\":\"solid\"}}}");
    }
    json.append("]}");
    byte[] jsonBytes = json.toString().getBytes(StandardCharsets.UTF_8);
    byte[] answer = ("Here you go:\n```json\n" + json + "\n```").getBytes(StandardCharsets.UTF_8);
    long tokensInOnePass = countTokens(jsonBytes);

    ActionsArrayReader chunked = new ActionsArrayReader();
    int actions = 0;
    for (int i = 0; i < answer.length; i += 7) {
      actions += chunked.feed(answer, i, Math.min(7, answer.length - i)).size();
      chunked.partial(ENUMS);
    }
    assertEquals(200, actions);
    assertTrue(
        chunked.bytesFed() >= jsonBytes.length && chunked.bytesFed() < jsonBytes.length + 7,
        "the parser was given each byte of the JSON once (and the rest of the chunk it ended in): "
            + chunked.bytesFed());
    assertEquals(tokensInOnePass, chunked.tokens(), "each token once");

    ActionsArrayReader byteByByte = new ActionsArrayReader();
    actions = 0;
    for (int i = 0; i < answer.length; i++) {
      actions += byteByByte.feed(answer, i, 1).size();
      byteByByte.partial(ENUMS);
    }
    assertEquals(200, actions);
    assertEquals(jsonBytes.length, byteByByte.bytesFed());
    assertEquals(tokensInOnePass, byteByByte.tokens());
    assertTrue(
        byteByByte.extraBytesVisited() <= 2L * jsonBytes.length,
        "bytes visited besides the parser's pass: "
            + byteByByte.extraBytesVisited()
            + " for "
            + jsonBytes.length);
  }

  private static long countTokens(byte[] json) throws IOException {
    long tokens = 0;
    try (JsonParser parser = new JsonFactory().createParser(json)) {
      while (parser.nextToken() != null) {
        tokens++;
      }
    }
    return tokens;
  }

  private static String problemOf(String text) {
    ActionsArrayReader reader = new ActionsArrayReader();
    reader.feed(text);
    return reader.problem().orElseThrow();
  }
}
