package dev.canvasagent.bridge;

import dev.canvasagent.auth.Grant;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.mcp.RunAdmission;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The edge's run limits as the MCP tools see them: a run asked over {@code /mcp} takes from the same
 * allowances as one asked over {@code /api} ({@link EdgeLimits#takeRun(Grant, String)}), and a refusal
 * is RATE_LIMITED with the same words and wait as the 429's.
 */
final class McpRunAdmission implements RunAdmission {
  private static final Logger LOG = LoggerFactory.getLogger(McpRunAdmission.class);

  private final EdgeLimits limits;

  McpRunAdmission(EdgeLimits limits) {
    this.limits = limits;
  }

  @Override
  public Future<Void> take(Grant grant, String roomId) {
    return limits
        .takeRun(grant, roomId)
        .compose(
            over -> {
              if (over.isEmpty()) {
                return Future.succeededFuture();
              }
              LOG.atInfo()
                  .addKeyValue("roomId", roomId)
                  .addKeyValue("retryAfterSeconds", over.get().retryAfterSeconds())
                  .log("edge.mcp_runs_limited");
              limits.counted(over.get());
              return Failure.future(FailureCode.RATE_LIMITED, over.get().message());
            });
  }

  @Override
  public Future<Void> giveBack(Grant grant, String roomId) {
    return limits.giveBackRun(grant, roomId);
  }
}
