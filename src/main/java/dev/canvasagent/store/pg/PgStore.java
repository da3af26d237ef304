package dev.canvasagent.store.pg;

import dev.canvasagent.config.DatabaseConfig;
import dev.canvasagent.store.AssetStore;
import dev.canvasagent.store.BoardStore;
import dev.canvasagent.store.ChatStore;
import dev.canvasagent.store.DocumentAgentSessions;
import dev.canvasagent.store.DocumentStore;
import dev.canvasagent.store.IdempotencyKeys;
import dev.canvasagent.store.RateLimits;
import dev.canvasagent.store.RunStore;
import dev.canvasagent.store.SessionStore;
import dev.canvasagent.store.Store;
import dev.canvasagent.store.TodoStore;
import dev.canvasagent.store.TranscriptStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Tuple;

/**
 * The PostgreSQL store: one shared pool (bounded wait queue, prepared statements cached) behind the
 * board and session stores. Opening it first brings the schema up to date with the migrations in
 * {@code sql/}.
 */
public final class PgStore implements Store {
  private final Pool pool;
  private final PgBoardStore boards;
  private final PgSessionStore sessions;
  private final PgTodoStore todos;
  private final PgTranscriptStore transcripts;
  private final PgChatStore chats;
  private final PgRunStore runs;
  private final PgDocumentStore documents;
  private final PgDocumentAgentSessions agentSessions;
  private final PgRateLimits rateLimits;
  private final PgAssetStore assets;
  private final IdempotencyKeys idempotencyKeys;

  private PgStore(Pool pool, byte[] idempotencySecret) {
    this.pool = pool;
    this.idempotencyKeys = new IdempotencyKeys(idempotencySecret);
    this.boards = new PgBoardStore(pool);
    this.sessions = new PgSessionStore(pool);
    this.todos = new PgTodoStore(pool);
    this.transcripts = new PgTranscriptStore(pool);
    this.chats = new PgChatStore(pool);
    this.runs = new PgRunStore(pool);
    this.documents = new PgDocumentStore(pool);
    this.agentSessions = new PgDocumentAgentSessions(pool);
    this.rateLimits = new PgRateLimits(pool);
    this.assets = new PgAssetStore(pool);
  }

  /** The secret {@link IdempotencyKeys} derives ids with, in {@code canvas_server_secrets}. */
  static final String IDEMPOTENCY_SECRET = "idempotency-keys";

  public static Future<Store> open(Vertx vertx, DatabaseConfig config) {
    return Migrations.apply(vertx, config)
        .compose(
            applied -> {
              Pool pool = pool(vertx, config);
              return sharedSecret(pool, IDEMPOTENCY_SECRET)
                  .<Store>map(secret -> new PgStore(pool, secret))
                  .recover(error -> pool.close().transform(closed -> Future.failedFuture(error)));
            });
  }

  /**
   * The secret every node on this database uses for {@code purpose}: this node proposes a random one,
   * the first proposal is kept, and every node reads that one. So nodes agree, and restarts keep it.
   */
  private static Future<byte[]> sharedSecret(Pool pool, String purpose) {
    return pool.preparedQuery(Sql.PROPOSE_SECRET)
        .execute(Tuple.of(purpose, Buffer.buffer(IdempotencyKeys.newSecret())))
        .compose(proposed -> pool.preparedQuery(Sql.FIND_SECRET).execute(Tuple.of(purpose)))
        .map(found -> found.iterator().next().getBuffer("secret").getBytes());
  }

  private static Pool pool(Vertx vertx, DatabaseConfig config) {
    PgConnectOptions connect =
        new PgConnectOptions()
            .setHost(config.host())
            .setPort(config.port())
            .setDatabase(config.database())
            .setUser(config.user())
            .setPassword(config.password())
            .setCachePreparedStatements(true)
            .setPreparedStatementCacheMaxSize(256)
            .addProperty("search_path", config.schema())
            .addProperty("application_name", "canvas-agent");
    PoolOptions poolOptions =
        new PoolOptions()
            .setMaxSize(config.poolSize())
            .setMaxWaitQueueSize(config.maxWaitQueueSize());
    return PgBuilder.pool().with(poolOptions).connectingTo(connect).using(vertx).build();
  }

  @Override
  public BoardStore boards() {
    return boards;
  }

  @Override
  public SessionStore sessions() {
    return sessions;
  }

  @Override
  public TodoStore todos() {
    return todos;
  }

  @Override
  public TranscriptStore transcripts() {
    return transcripts;
  }

  @Override
  public ChatStore chats() {
    return chats;
  }

  @Override
  public RunStore runs() {
    return runs;
  }

  @Override
  public DocumentStore documents() {
    return documents;
  }

  @Override
  public DocumentAgentSessions documentAgentSessions() {
    return agentSessions;
  }

  @Override
  public AssetStore assets() {
    return assets;
  }

  @Override
  public RateLimits rateLimits() {
    return rateLimits;
  }

  @Override
  public IdempotencyKeys idempotencyKeys() {
    return idempotencyKeys;
  }

  @Override
  public String kind() {
    return "postgres";
  }

  @Override
  public Future<Void> ping() {
    return pool.query(Sql.PING).execute().mapEmpty();
  }

  @Override
  public Future<Void> close() {
    return pool.close();
  }
}
