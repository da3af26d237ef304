package dev.canvasagent.catalog.batch;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refs within a batch: the operations are read in order and each valid ref enters a map, so a later
 * operation can name an earlier one. An operation whose ref is empty, malformed or already taken is
 * skipped; a {@code parentRef} that names no frame before it leaves the object top-level; a
 * connector with an end that names no object before it is skipped. Each of these is logged with the
 * ref that caused it and returned, so the action's result can tell the model.
 */
public final class RefResolver {
  private static final Logger LOG = LoggerFactory.getLogger(RefResolver.class);

  /** A ref: 2 to 40 lowercase letters, digits and underscores. */
  public static final Pattern REF = Pattern.compile("[a-z0-9_]{2,40}");

  private final Map<String, BatchShape> shapes = new HashMap<>();
  private final Set<String> taken = new HashSet<>();
  private final List<BatchShape> resolved = new ArrayList<>();
  private final List<BatchConnector> connectors = new ArrayList<>();
  private final List<BatchIssue> skipped = new ArrayList<>();
  private final List<BatchIssue> placedTopLevel = new ArrayList<>();

  private RefResolver() {}

  public static ResolvedBatch resolve(JsonArray operations) {
    RefResolver resolver = new RefResolver();
    for (int index = 0; index < operations.size(); index++) {
      Object operation = operations.getValue(index);
      if (operation instanceof JsonObject object) {
        resolver.add(index, object);
      } else {
        resolver.skip(index, null, "not an operation object");
      }
    }
    return new ResolvedBatch(
        resolver.resolved, resolver.connectors, resolver.skipped, resolver.placedTopLevel);
  }

  private void add(int index, JsonObject operation) {
    String ref = string(operation, "ref");
    var kind = OperationKind.of(operation.getValue("op"));
    if (kind.isEmpty()) {
      skip(index, ref, "unknown op '" + operation.getValue("op") + "'");
      return;
    }
    if (ref == null || ref.isEmpty()) {
      skip(index, ref, "empty ref");
      return;
    }
    if (!REF.matcher(ref).matches()) {
      skip(index, ref, "invalid ref '" + ref + "' (2-40 of a-z, 0-9, _)");
      return;
    }
    if (taken.contains(ref)) {
      skip(index, ref, "duplicate ref '" + ref + "'");
      return;
    }
    if (kind.get() == OperationKind.CONNECTOR) {
      addConnector(index, ref, operation);
      return;
    }
    taken.add(ref);
    BatchShape shape =
        new BatchShape(
            index,
            ref,
            kind.get(),
            parent(index, ref, string(operation, "parentRef")),
            text(operation, kind.get()),
            string(operation, "color"),
            string(operation, "geo"),
            requestedSize(operation, kind.get()));
    shapes.put(ref, shape);
    resolved.add(shape);
  }

  private BatchShape parent(int index, String ref, String parentRef) {
    if (parentRef == null) {
      return null;
    }
    BatchShape parent = shapes.get(parentRef);
    String problem =
        parent == null
            ? "parentRef '" + parentRef + "' names no object before it"
            : parent.kind() != OperationKind.FRAME
                ? "parentRef '" + parentRef + "' is not a frame"
                : null;
    if (problem == null) {
      return parent;
    }
    placedTopLevel.add(new BatchIssue(index, ref, problem + "; placed top-level"));
    LOG.atWarn()
        .addKeyValue("ref", ref)
        .addKeyValue("parentRef", parentRef)
        .addKeyValue("reason", problem)
        .log("batch.parent_missing");
    return null;
  }

  private void addConnector(int index, String ref, JsonObject operation) {
    String fromRef = string(operation, "fromRef");
    String toRef = string(operation, "toRef");
    BatchShape from = fromRef == null ? null : shapes.get(fromRef);
    BatchShape to = toRef == null ? null : shapes.get(toRef);
    if (from == null) {
      skip(index, ref, "fromRef '" + fromRef + "' names no object before it");
    } else if (to == null) {
      skip(index, ref, "toRef '" + toRef + "' names no object before it");
    } else if (from == to) {
      skip(index, ref, "fromRef and toRef are both '" + fromRef + "'");
    } else {
      taken.add(ref);
      connectors.add(
          new BatchConnector(
              index,
              ref,
              from,
              to,
              firstString(operation, "label", "text"),
              string(operation, "color")));
    }
  }

  private void skip(int index, String ref, String reason) {
    skipped.add(new BatchIssue(index, ref, reason));
    LOG.atWarn()
        .addKeyValue("index", index)
        .addKeyValue("ref", ref)
        .addKeyValue("reason", reason)
        .log("batch.operation_skipped");
  }

  /** A frame's name (or its text), the others' text (or their label): a model mixing them up still gets its words. */
  private static String text(JsonObject operation, OperationKind kind) {
    String text =
        kind == OperationKind.FRAME
            ? firstString(operation, "name", "text")
            : firstString(operation, "text", "label");
    return text == null ? "" : text;
  }

  private static Size requestedSize(JsonObject operation, OperationKind kind) {
    if (kind != OperationKind.FRAME && kind != OperationKind.SHAPE) {
      return null;
    }
    double fallback =
        kind == OperationKind.FRAME
            ? LayoutMetrics.FRAME_DEFAULT_SIZE
            : LayoutMetrics.SHAPE_DEFAULT_SIZE;
    Double w = number(operation, "w");
    Double h = number(operation, "h");
    return new Size(
        LayoutMetrics.clampSize(w == null ? fallback : w),
        LayoutMetrics.clampSize(h == null ? fallback : h));
  }

  private static String firstString(JsonObject operation, String first, String second) {
    String value = string(operation, first);
    return value != null ? value : string(operation, second);
  }

  private static String string(JsonObject operation, String key) {
    return operation.getValue(key) instanceof String value ? value : null;
  }

  private static Double number(JsonObject operation, String key) {
    return operation.getValue(key) instanceof Number value && Double.isFinite(value.doubleValue())
        ? value.doubleValue()
        : null;
  }
}
