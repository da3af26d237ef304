package dev.canvasagent.sanitizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.BoardIntegrity;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.RecordDiff;
import dev.canvasagent.board.TldrawRecordValidator;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.bus.BoardChangeRequest;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.VerbKind;
import dev.canvasagent.nodeboards.NodeBoards;
import dev.canvasagent.patch.PatchEngineVerticle;
import dev.canvasagent.store.BoardStore.BoardRevision;
import dev.canvasagent.store.memory.MemoryStore;
import dev.canvasagent.support.Await;
import dev.canvasagent.support.TestServer;
import dev.canvasagent.support.TldrawOracle;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Property: whatever actions a model streams, through the real sanitizer and patch engine, the board
 * stays whole and every record on it is one tldraw's own schema accepts; and the stored revision
 * history replays to exactly that board. Seeds are fixed, so a failure reproduces.
 */
@ExtendWith(VertxExtension.class)
class BoardPropertyTest {
  static final int SEQUENCES = 30;
  static final int ACTIONS_PER_SEQUENCE = 60;

  @Test
  void randomActionSequencesKeepEveryRecordValidAndTheHistoryReplayable(Vertx vertx) {
    MemoryStore store = new MemoryStore();
    NodeBoards boards = new NodeBoards();
    Await.result(
        vertx.deployVerticle(new SanitizerVerticle(ActionCatalog.standard(), true, boards)));
    Await.result(
        vertx.deployVerticle(
            new PatchEngineVerticle(store, TestServer.config(Map.of()).boardCache(), boards)));
    EventBus bus = vertx.eventBus();
    Map<String, JsonObject> everyRecordPut = new LinkedHashMap<>();
    int committed = 0;
    Map<String, Integer> committedVerbs = new TreeMap<>();

    for (int seed = 1; seed <= SEQUENCES; seed++) {
      String roomId = "property-" + seed;
      RandomActions actions = new RandomActions(seed);
      Board board = Board.empty(roomId);
      CoordinateFrame frame = new CoordinateFrame(seed * 10, -seed * 5, Map.of());
      for (int step = 0; step < ACTIONS_PER_SEQUENCE; step++) {
        String verb = actions.verb();
        AgentAction action = new AgentAction(seed + ":" + step, verb, actions.params(verb, board));
        JsonObject ask =
            new JsonObject()
                .put("roomId", roomId)
                .put("action", action.toJson())
                .put("revision", board.revision())
                .put("frame", frame.toJson());
        Future<JsonObject> sanitized =
            bus.<JsonObject>request(Address.SANITIZER_SANITIZE.address(), ask)
                .map(reply -> reply.body());
        JsonObject result;
        try {
          result = Await.result(sanitized);
        } catch (RuntimeException refused) {
          FailureCode code = Failure.of(refused).code();
          assertTrue(
              List.of(
                      FailureCode.ACTION_INVALID,
                      FailureCode.SHAPE_NOT_FOUND,
                      FailureCode.DUPLICATE_CREATE)
                  .contains(code),
              "seed "
                  + seed
                  + " step "
                  + step
                  + " "
                  + verb
                  + ": refused with "
                  + code
                  + " "
                  + refused.getMessage());
          continue;
        }
        if (!"BOARD".equals(result.getString("kind"))) {
          continue;
        }
        RecordDiff diff = RecordDiff.fromJson(result.getJsonObject("diff"));
        JsonObject commit =
            new BoardChangeRequest(roomId, board.revision(), diff, "property").toJson();
        long revision;
        try {
          revision =
              Await.result(bus.<JsonObject>request(Address.PATCH_BOARD_APPLY.address(), commit))
                  .body()
                  .getLong("revision");
        } catch (RuntimeException refused) {
          throw new AssertionError(
              "seed "
                  + seed
                  + " step "
                  + step
                  + " "
                  + verb
                  + " "
                  + action.params().encode()
                  + " made a diff the patch engine refused: "
                  + refused.getMessage(),
              refused);
        }
        board = board.apply(diff, revision);
        committed++;
        committedVerbs.merge(verb, 1, Integer::sum);
        diff.put()
            .forEach(
                record ->
                    everyRecordPut.put(
                        record.getString("id") + "@" + roomId + "#" + revision, record));
        for (JsonObject record : board.records().values()) {
          assertEquals(
              java.util.Optional.empty(),
              TldrawRecordValidator.check(record).map(Object::toString),
              "seed " + seed + " step " + step + " " + verb);
        }
        assertEquals(
            java.util.Optional.empty(),
            BoardIntegrity.problem(board, new RecordDiff(List.of(), List.of())),
            "seed " + seed + " step " + step + " " + verb);
      }
      assertEquals(
          board.records(), Await.result(store.load(roomId)).records(), "the store holds the board");
      Board replayed = Board.empty(roomId);
      for (BoardRevision stored : Await.result(store.revisions(roomId, 0, Integer.MAX_VALUE))) {
        replayed = replayed.apply(stored.diff(), stored.revision());
      }
      assertEquals(board.revision(), replayed.revision());
      assertEquals(
          board.records(),
          replayed.records(),
          "seed " + seed + ": the history replays to the board");
    }
    assertTrue(
        committed > SEQUENCES * 10, "the sequences did change boards: " + committed + " commits");
    Set<String> boardVerbs =
        ActionCatalog.standard().entries().stream()
            .filter(entry -> entry.verb().kind() == VerbKind.BOARD)
            .map(entry -> entry.verb().name())
            .collect(Collectors.toCollection(TreeSet::new));
    assertTrue(
        committedVerbs.keySet().containsAll(boardVerbs),
        "every board verb of the catalog committed at least once: "
            + committedVerbs
            + " of "
            + boardVerbs);
    TldrawOracle.assertValid(new ArrayList<>(everyRecordPut.values()));
  }
}
