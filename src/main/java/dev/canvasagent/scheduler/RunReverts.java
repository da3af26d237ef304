package dev.canvasagent.scheduler;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RunRevertRequest;
import dev.canvasagent.bus.RunReverted;
import dev.canvasagent.store.RunStore;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;

/**
 * Undoing a run ({@code scheduler.run.revert}): the scheduler knows runs, so it checks the run's
 * record — known, of the room the request names, ended — before the patch engine reverts its
 * revisions. A run still queued or running could add revisions after the revert, so it must end first.
 */
final class RunReverts {
  private final EventBus bus;
  private final RunStore runs;

  RunReverts(EventBus bus, RunStore runs) {
    this.bus = bus;
    this.runs = runs;
  }

  Future<RunReverted> revert(RunRevertRequest request) {
    return runs.find(request.runId())
        .recover(error -> Failure.storeFailed("read the run", error))
        .compose(
            found -> {
              if (found.isEmpty()) {
                return Failure.future(
                    FailureCode.RUN_NOT_FOUND, "no run " + request.runId() + " is known");
              }
              RunStore.RunRecord run = found.get();
              if (!run.roomId().equals(request.roomId())) {
                return Failure.future(
                    FailureCode.RUN_ROOM_MISMATCH,
                    "run " + run.runId() + " belongs to another room than " + request.roomId());
              }
              if (RunStore.QUEUED.equals(run.state()) || RunStore.RUNNING.equals(run.state())) {
                return Failure.future(
                    FailureCode.RUN_STILL_RUNNING,
                    "run " + run.runId() + " is " + run.state() + ": revert it once it has ended");
              }
              return Address.PATCH_BOARD_REVERT.ask(bus, request);
            });
  }
}
