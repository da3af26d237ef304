package dev.canvasagent.scheduler;

import dev.canvasagent.bus.RunRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The run a session is executing, as the scheduler sees it: the follow-ups it asked for (queued only
 * if it ends {@code done}) and the names ({@code ref}) it gave the todos it added, which its later
 * {@code todo} actions may use as ids.
 */
final class ActiveRun {
  final RunRequest run;
  final List<RunRequest> followUps = new ArrayList<>();
  final Map<String, String> todoRefs = new HashMap<>();

  ActiveRun(RunRequest run) {
    this.run = run;
  }
}
