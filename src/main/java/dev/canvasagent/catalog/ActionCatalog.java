package dev.canvasagent.catalog;

import dev.canvasagent.catalog.verbs.AddDetailVerb;
import dev.canvasagent.catalog.verbs.AlignVerb;
import dev.canvasagent.catalog.verbs.ApplyPresetVerb;
import dev.canvasagent.catalog.verbs.BatchOperationsVerb;
import dev.canvasagent.catalog.verbs.ClearVerb;
import dev.canvasagent.catalog.verbs.CreateShapeVerb;
import dev.canvasagent.catalog.verbs.DeleteShapeVerb;
import dev.canvasagent.catalog.verbs.DistributeVerb;
import dev.canvasagent.catalog.verbs.GroupVerb;
import dev.canvasagent.catalog.verbs.LabelVerb;
import dev.canvasagent.catalog.verbs.MessageVerb;
import dev.canvasagent.catalog.verbs.MoveVerb;
import dev.canvasagent.catalog.verbs.PenVerb;
import dev.canvasagent.catalog.verbs.PlaceVerb;
import dev.canvasagent.catalog.verbs.ReorderVerb;
import dev.canvasagent.catalog.verbs.ResizeVerb;
import dev.canvasagent.catalog.verbs.ReviewVerb;
import dev.canvasagent.catalog.verbs.RotateVerb;
import dev.canvasagent.catalog.verbs.SetViewportVerb;
import dev.canvasagent.catalog.verbs.StackVerb;
import dev.canvasagent.catalog.verbs.ThinkVerb;
import dev.canvasagent.catalog.verbs.TodoVerb;
import dev.canvasagent.catalog.verbs.UngroupVerb;
import dev.canvasagent.catalog.verbs.UpdateShapeVerb;
import dev.canvasagent.schema.JsonSchemaFile;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The verbs the agent may use. Each verb's JSON Schema file ({@code catalog/<verb>.json}, draft-07,
 * with its description and an example) is the one source of truth: it validates actions here and
 * describes the tools to models and clients.
 */
public final class ActionCatalog {
  private final Map<String, Entry> entries = new LinkedHashMap<>();

  /** A verb and its schema. */
  public record Entry(ActionVerb verb, JsonSchemaFile schema) {}

  private ActionCatalog(List<ActionVerb> verbs) {
    for (ActionVerb verb : verbs) {
      entries.put(
          verb.name(), new Entry(verb, JsonSchemaFile.load("catalog/" + verb.name() + ".json")));
    }
  }

  /** The catalog with every verb this server implements. */
  public static ActionCatalog standard() {
    return new ActionCatalog(
        List.of(
            new CreateShapeVerb(),
            new BatchOperationsVerb(),
            new UpdateShapeVerb(),
            new DeleteShapeVerb(),
            new MoveVerb(),
            new ResizeVerb(),
            new RotateVerb(),
            new GroupVerb(),
            new UngroupVerb(),
            new AlignVerb(),
            new DistributeVerb(),
            new StackVerb(),
            new ReorderVerb(),
            new PlaceVerb(),
            new LabelVerb(),
            new PenVerb(),
            new ApplyPresetVerb(),
            new ClearVerb(),
            new SetViewportVerb(),
            new ThinkVerb(),
            new MessageVerb(),
            new TodoVerb(),
            new AddDetailVerb(),
            new ReviewVerb()));
  }

  public Optional<Entry> entry(String verbName) {
    return Optional.ofNullable(entries.get(verbName));
  }

  public Collection<Entry> entries() {
    return entries.values();
  }

  /** The verbs' names, in the catalog's order. */
  public List<String> names() {
    return List.copyOf(entries.keySet());
  }

  /** The machine-readable catalog: name, description, params schema and sample per verb. */
  public JsonArray describe() {
    JsonArray verbs = new JsonArray();
    for (Entry entry : entries.values()) {
      JsonObject schema = entry.schema().document();
      JsonArray examples = (JsonArray) schema.remove("examples");
      String description = (String) schema.remove("description");
      schema.remove("title");
      verbs.add(
          new JsonObject()
              .put("name", entry.verb().name())
              .put("description", description)
              .put("kind", entry.verb().kind().name().toLowerCase(java.util.Locale.ROOT))
              .put("params", schema)
              .put("sample", examples == null || examples.isEmpty() ? null : examples.getValue(0)));
    }
    return verbs;
  }
}
