package dev.canvasagent.runner;

import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.dialect.Translation;
import dev.canvasagent.catalog.dialect.VerbDialects;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's actions written in another dialect (the kit's {@code create}, seed 002's {@code wb_create},
 * {@code createShape}, …), put into our verbs once, when the action arrives: each such action is logged
 * once as {@code [CanvasAgent:VerbAlias]} and counted by the name the model used, however often a
 * commit conflict or a wait for its shapes has it sanitized again afterwards.
 */
final class AliasedVerbs {
  private static final Logger LOG = LoggerFactory.getLogger(AliasedVerbs.class);

  private final VerbDialects dialects;
  private final String runId;
  private final Map<String, Integer> uses = new TreeMap<>();

  AliasedVerbs(VerbDialects dialects, String runId) {
    this.dialects = dialects;
    this.runId = runId;
  }

  /**
   * The action in our verbs, same id. Throws {@link ActionRejected} with the reason when it is another
   * dialect's action that our verbs cannot express.
   */
  AgentAction inOurVerbs(AgentAction action) {
    Translation translation = dialects.translate(action.name(), action.params());
    if (translation instanceof Translation.Translated translated) {
      count(action, translated.alias().dialect().wireName(), translated.alias().verb());
      return new AgentAction(action.id(), translated.alias().verb(), translated.params());
    }
    if (translation instanceof Translation.Unmappable unmappable) {
      count(action, unmappable.alias().dialect().wireName(), unmappable.alias().verb());
      throw new ActionRejected(unmappable.reason());
    }
    return action;
  }

  private void count(AgentAction action, String dialect, String verb) {
    uses.merge(action.name(), 1, Integer::sum);
    LOG.atInfo()
        .addKeyValue("runId", runId)
        .addKeyValue("actionId", action.id())
        .addKeyValue("alias", action.name())
        .addKeyValue("dialect", dialect)
        .addKeyValue("verb", verb)
        .log("[CanvasAgent:VerbAlias]");
  }

  /** {@code aliases: {<name as the model wrote it>: count}} in the run's summary, when there were any. */
  void addTo(JsonObject summary) {
    if (!uses.isEmpty()) {
      JsonObject aliases = new JsonObject();
      uses.forEach(aliases::put);
      summary.put("aliases", aliases);
    }
  }
}
