package dev.canvasagent.mcp;

import dev.canvasagent.auth.Grant;
import io.vertx.core.Future;

/**
 * The run limits a model run counts against ({@code CANVAS_AGENT_RUNS_PER_MINUTE} per client, {@code
 * CANVAS_AGENT_ROOM_RUNS_PER_MINUTE} per room). They live at the edge, in the bridge, which passes them
 * in ({@link CanvasMcp#server}): a run asked over MCP and one asked over {@code /api} take from the same
 * allowance, and this package needs to know nothing of how they are counted.
 */
public interface RunAdmission {
  /** No limits, for a server built without an edge (tests of the protocol alone). */
  RunAdmission UNLIMITED =
      new RunAdmission() {
        @Override
        public Future<Void> take(Grant grant, String roomId) {
          return Future.succeededFuture();
        }

        @Override
        public Future<Void> giveBack(Grant grant, String roomId) {
          return Future.succeededFuture();
        }
      };

  /**
   * One run for the grant's client in {@code roomId}, from both allowances or neither: fails
   * RATE_LIMITED naming the limit and the wait when either is spent.
   */
  Future<Void> take(Grant grant, String roomId);

  /** A run {@link #take} counted was refused further in: it does not count. Always succeeds. */
  Future<Void> giveBack(Grant grant, String roomId);
}
