package dev.canvasagent.runner.context;

import dev.canvasagent.board.Board;
import dev.canvasagent.bus.FollowUp;
import dev.canvasagent.bus.Screenshot;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.store.SessionStore.Origin;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a run's context is made from, gathered before the model is called: what every part may
 * read, and what each part fetched for itself. Page coordinates throughout; the parts convert to the
 * model's.
 *
 * @param viewport the requester's viewport in page space, or null when neither the request nor the
 *     room's host gave one
 * @param selection record ids of selected shapes that are on the board, in the order given
 * @param screenshot the screenshot verticle's answer, or null (the run is text-only)
 * @param followUp what made this run a follow-up, or null for a person's request
 * @param gathered what each part's {@link PromptPart#gather} fetched, by part name; a part that
 *     gathers nothing, or whose gathering failed, has null or no entry
 */
public record ContextInputs(
    String roomId,
    String sessionId,
    String message,
    Board board,
    Origin origin,
    Viewport viewport,
    List<String> selection,
    Screenshot screenshot,
    FollowUp followUp,
    Map<String, Object> gathered) {

  public ContextInputs {
    selection = List.copyOf(selection);
    gathered = Collections.unmodifiableMap(new HashMap<>(gathered));
  }
}
