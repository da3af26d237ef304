package dev.canvasagent.scheduler;

import dev.canvasagent.bus.RunActivity;
import dev.canvasagent.bus.RunCancel;
import dev.canvasagent.bus.RunRequest;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The run a session is executing, as the scheduler sees it: the follow-ups it asked for (queued only
 * if it ends {@code done}), the names ({@code ref}) it gave the todos it added, which its later
 * {@code todo} actions may use as ids, the cancel asked of it if any, and its end. The run ends once,
 * whichever comes first: the runner's answer, or the scheduler giving it up as interrupted.
 */
final class ActiveRun {
  final RunRequest run;
  final List<RunRequest> followUps = new ArrayList<>();
  final Map<String, String> todoRefs = new HashMap<>();

  /** The cancel asked of this run (cancel request, preemption, watchdog); null while none was. */
  RunCancel cancel;

  long watchdogTimer = -1;
  private final Promise<String> ended = Promise.promise();

  /** When it started here (epoch milliseconds), as the admin view shows it. */
  final long startedAtMillis;

  ActiveRun(RunRequest run) {
    this.run = run;
    this.startedAtMillis = System.currentTimeMillis();
  }

  /** The run as the admin views show it. */
  RunActivity activity() {
    return new RunActivity(
        run.sessionId(),
        run.runId(),
        canceling() ? RunActivity.CANCELING : RunActivity.RUNNING,
        startedAtMillis);
  }

  boolean canceling() {
    return cancel != null;
  }

  /** Records the run's final state; false when it had already ended (a late answer changes nothing). */
  boolean end(String state) {
    return ended.tryComplete(state);
  }

  boolean ended() {
    return ended.future().isComplete();
  }

  /** Completes with the run's final state ({@code done}, {@code scheduled}, {@code canceled}, {@code error}). */
  Future<String> whenEnded() {
    return ended.future();
  }
}
