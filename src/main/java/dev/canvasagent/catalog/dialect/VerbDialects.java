package dev.canvasagent.catalog.dialect;

import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.ActionRejected;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one table of the other dialects' verbs: the kit's actions, seed 002's {@code wb_*} tools, seed
 * 003's camelCase tools, and our own names spelled otherwise. It turns an action of any of them into
 * our verb and its params, which the sanitizer then judges exactly like an action written in our verbs.
 * Names are matched {@link VerbNames#normalized normalized}, so {@code bring_to_front} is the kit's
 * {@code bringToFront} and {@code WB-CREATE} seed 002's {@code wb_create}. The catalog, the system
 * prompt and {@code GET /api/catalog} know none of this: models are only ever shown our names.
 */
public final class VerbDialects {
  private final ActionCatalog catalog;
  private final Map<String, VerbAlias> aliases = new LinkedHashMap<>();
  private final Map<String, String> spellings = new LinkedHashMap<>();

  public VerbDialects(ActionCatalog catalog) {
    this.catalog = catalog;
    for (ActionCatalog.Entry entry : catalog.entries()) {
      spellings.put(VerbNames.normalized(entry.verb().name()), entry.verb().name());
    }
    List<VerbAlias> all = new ArrayList<>();
    all.addAll(KitActions.aliases());
    all.addAll(ShruAiTools.aliases());
    all.addAll(CollabBoardTools.aliases());
    for (VerbAlias alias : all) {
      if (catalog.entry(alias.verb()).isEmpty()) {
        throw new IllegalStateException(alias.name() + " names no verb of ours: " + alias.verb());
      }
      if (aliases.put(VerbNames.normalized(alias.name()), alias) != null) {
        throw new IllegalStateException("two dialects name " + alias.name());
      }
    }
    for (String twin : KitActions.TWINS.keySet()) {
      if (catalog.entry(twin).isEmpty()) {
        throw new IllegalStateException("the kit's " + twin + " is no verb of ours");
      }
    }
  }

  /** Every name of another dialect this table reads (not our own names' other spellings), in table order. */
  public List<VerbAlias> aliases() {
    return Collections.unmodifiableList(new ArrayList<>(aliases.values()));
  }

  /** The action in our verbs, as given when it is ours already (or no dialect's at all). */
  public Translation translate(String name, JsonObject params) {
    JsonObject given = params == null ? new JsonObject() : params;
    if (catalog.entry(name).isPresent()) {
      return ours(name, name, Dialect.KIT, given);
    }
    String normalized = VerbNames.normalized(name);
    VerbAlias alias = aliases.get(normalized);
    if (alias != null) {
      return apply(alias, name, given);
    }
    String verb = spellings.get(normalized);
    if (verb != null) {
      return ours(name, verb, Dialect.SPELLING, given);
    }
    return new Translation.AsGiven(name, given);
  }

  /**
   * Our verb {@code verb}, named {@code name}: as given when our schema accepts the params (or the kit
   * has no fields of its own for it), else read with the kit's fields.
   */
  private Translation ours(String name, String verb, Dialect dialect, JsonObject params) {
    ParamsTranslation kitFields = KitActions.TWINS.get(verb);
    // Only then is the schema asked: most actions (every create_shape) need no second validation.
    if (kitFields != null
        && catalog.entry(verb).orElseThrow().schema().violations(params).isPresent()) {
      return apply(new VerbAlias(name, dialect, verb, kitFields), name, params);
    }
    return name.equals(verb)
        ? new Translation.AsGiven(name, params)
        : new Translation.Translated(
            new VerbAlias(name, Dialect.SPELLING, verb, p -> p), name, params);
  }

  private static Translation apply(VerbAlias alias, String name, JsonObject params) {
    try {
      return new Translation.Translated(alias, name, alias.params().apply(params));
    } catch (ActionRejected unmappable) {
      return new Translation.Unmappable(alias, name, name + ": " + unmappable.getMessage());
    }
  }
}
