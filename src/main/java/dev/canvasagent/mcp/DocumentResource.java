package dev.canvasagent.mcp;

import dev.canvasagent.auth.Grant;
import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.DocumentRef;
import dev.canvasagent.bus.DocumentView;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomTopic;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code canvas://docs/{docId}}: a Markdown document, read as two contents of the same URI: the
 * Markdown itself ({@code text/markdown}), then {@code application/json} {@code {docId, roomId, title,
 * revision, version, lease}}, so a client that shows the text never has to parse metadata out of it and
 * one that edits has the revision its patch needs. Readable by a viewer of the document's room. A
 * subscription hears every new revision ({@code doc:revision} on the document's room: a person's edit,
 * a tool's write, the document agent's). Documents are not listed (nothing lists them short of a
 * scan): the template is the way in.
 */
final class DocumentResource implements McpResource {
  static final String TEMPLATE = "canvas://docs/{docId}";
  private static final Pattern URI =
      Pattern.compile("canvas://docs/([A-Za-z0-9_-]{1," + ToolArguments.MAX_DOC_ID_CHARS + "})");

  private final EventBus bus;
  private final McpAccess access;
  private final ResourceSubscriptions subscriptions;

  DocumentResource(EventBus bus, McpAccess access, ResourceSubscriptions subscriptions) {
    this.bus = bus;
    this.access = access;
    this.subscriptions = subscriptions;
  }

  static String uri(String docId) {
    return "canvas://docs/" + docId;
  }

  @Override
  public Future<JsonArray> list(McpSession session, Grant grant) {
    return Future.succeededFuture(new JsonArray());
  }

  @Override
  public Optional<JsonObject> template() {
    return Optional.of(
        new JsonObject()
            .put("uriTemplate", TEMPLATE)
            .put("name", "document")
            .put("title", "A Markdown document")
            .put(
                "description",
                "The document's Markdown (text/markdown), then {docId, roomId, title, revision, version, lease} "
                    + "(application/json). Subscribe to hear of every new revision, whoever wrote it.")
            .put("mimeType", "text/markdown"));
  }

  @Override
  public boolean owns(String uri) {
    return URI.matcher(uri).matches();
  }

  private static String document(String uri) {
    Matcher matcher = URI.matcher(uri);
    if (!matcher.matches()) {
      throw new Failure(FailureCode.NOT_FOUND, "not a document URI");
    }
    return matcher.group(1);
  }

  @Override
  public Future<JsonArray> read(String uri, McpSession session, Grant grant) {
    String docId = document(uri);
    return access
        .document(grant, Role.VIEWER, docId)
        .compose(allowed -> Address.DOC_GET.ask(bus, new DocumentRef(docId)))
        .map(document -> contents(uri, document));
  }

  private static JsonArray contents(String uri, DocumentView document) {
    JsonObject about =
        new JsonObject()
            .put("docId", document.id())
            .put("roomId", document.roomId())
            .put("title", document.title())
            .put("revision", document.revisionId())
            .put("version", document.version())
            .put("lease", document.lease().toJson());
    return new JsonArray()
        .add(
            new JsonObject()
                .put("uri", uri)
                .put("mimeType", "text/markdown")
                .put("text", document.content()))
        .add(
            new JsonObject()
                .put("uri", uri)
                .put("mimeType", "application/json")
                .put("text", about.encode()));
  }

  @Override
  public Future<Void> subscribe(String uri, McpSession session, Grant grant) {
    String docId = document(uri);
    return access
        .document(grant, Role.VIEWER, docId)
        .compose(allowed -> Address.DOC_ROOM.ask(bus, new DocumentRef(docId)))
        .compose(
            room ->
                subscriptions.open(
                    session,
                    uri,
                    room.roomId(),
                    List.of(RoomTopic.DOC_REVISION),
                    payload -> docId.equals(payload.getString("docId"))));
  }
}
