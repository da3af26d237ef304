package dev.canvasagent.scheduler;

import dev.canvasagent.config.AppConfig;
import dev.canvasagent.store.TodoStore;
import dev.canvasagent.store.TodoStore.Status;
import dev.canvasagent.store.TodoStore.Todo;
import io.vertx.core.Future;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's own follow-ups, judged when a run is about to end {@code done}, each at most once per
 * user request and within the request's follow-up cap:
 * <ul>
 *   <li>{@code low_actions}: the run a person's message started applied fewer than
 *       {@code followups.lowActionThreshold} actions (chat — {@code think}, {@code message} — does not
 *       count; dropped and refused actions neither; a committed {@code batch_operations} counts as the shapes it
 *       created or changed). 0 turns the rule off.</li>
 *   <li>{@code open_todos}: the request's last run (nothing more of it asked for or waiting) leaves
 *       open items on the session's todo list.</li>
 * </ul>
 * A run that ends in error or is canceled is never judged. The messages are fixed texts, so the same
 * run gets the same follow-up.
 */
final class FollowUpRules {
  private static final Logger LOG = LoggerFactory.getLogger(FollowUpRules.class);
  static final String LOW_ACTIONS = "low_actions";
  static final String OPEN_TODOS = "open_todos";

  /** How much of the person's message a rule's message quotes. */
  static final int REQUEST_EXCERPT_CHARS = 200;

  /** Open items a rule's message lists, and how much of each item's text. */
  static final int MAX_TODOS_LISTED = 20;

  static final int TODO_TEXT_CHARS = 200;

  /** A follow-up a rule asks for: its reason and the message the run gets. */
  record RuleFollowUp(String reason, String message) {}

  private final AppConfig.Followups config;
  private final TodoStore todos;

  FollowUpRules(AppConfig.Followups config, TodoStore todos) {
    this.config = config;
    this.todos = todos;
  }

  /**
   * The rule follow-up the ending run earns, if any, marking the rule as applied to its request. A
   * store that cannot list the todos means no {@code open_todos} follow-up, never a failed run.
   */
  Future<Optional<RuleFollowUp>> judge(ActiveRun ending, SessionQueue queue, int actionsApplied) {
    String requestRunId = ending.run.requestRunId();
    RequestFollowUps request = queue.request(requestRunId);
    int threshold = config.lowActionThreshold();
    if (ending.run.followUp() == null
        && threshold > 0
        && actionsApplied < threshold
        && request.applyRuleOnce(LOW_ACTIONS)) {
      return Future.succeededFuture(
          Optional.of(
              new RuleFollowUp(
                  LOW_ACTIONS, lowActionsMessage(actionsApplied, request.personMessage))));
    }
    boolean lastOfRequest = ending.followUps.isEmpty() && !queue.hasWaiting(requestRunId);
    if (!lastOfRequest || !request.applyRuleOnce(OPEN_TODOS)) {
      return Future.succeededFuture(Optional.empty());
    }
    return todos
        .list(ending.run.sessionId())
        .map(items -> items.stream().filter(todo -> todo.status() == Status.OPEN).toList())
        .map(
            open ->
                open.isEmpty()
                    ? Optional.<RuleFollowUp>empty()
                    : Optional.of(
                        new RuleFollowUp(
                            OPEN_TODOS, openTodosMessage(open, request.personMessage))))
        .otherwise(
            error -> {
              LOG.atWarn()
                  .addKeyValue("sessionId", ending.run.sessionId())
                  .addKeyValue("runId", ending.run.runId())
                  .addKeyValue("reason", error.getMessage())
                  .log("followup.todos_unreadable");
              return Optional.empty();
            });
  }

  static String lowActionsMessage(int actions, String personMessage) {
    return "You made only "
        + actions
        + (actions == 1 ? " change" : " changes")
        + " for: \""
        + excerpt(personMessage)
        + "\". Look at the board again and finish what was asked; answer without actions if it is done.";
  }

  static String openTodosMessage(List<Todo> open, String personMessage) {
    StringBuilder text =
        new StringBuilder("Your todo list still has open items for: \"")
            .append(excerpt(personMessage))
            .append("\".\n");
    open.stream()
        .limit(MAX_TODOS_LISTED)
        .forEach(todo -> text.append("- ").append(cut(todo.text(), TODO_TEXT_CHARS)).append('\n'));
    if (open.size() > MAX_TODOS_LISTED) {
      text.append("- … and ").append(open.size() - MAX_TODOS_LISTED).append(" more\n");
    }
    return text.append(
            "Finish them, or mark each one done or skipped with the todo action; answer without actions if"
                + " nothing is left to do.")
        .toString();
  }

  private static String excerpt(String message) {
    return cut(
        message == null ? "" : message.strip().replaceAll("\\s+", " "), REQUEST_EXCERPT_CHARS);
  }

  private static String cut(String text, int chars) {
    return text.length() <= chars ? text : text.substring(0, chars) + "…";
  }
}
