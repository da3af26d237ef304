package dev.canvasagent.config;

/** Where PostgreSQL is and how the shared pool may use it. */
public record DatabaseConfig(
    String host,
    int port,
    String database,
    String user,
    String password,
    String schema,
    int poolSize,
    int maxWaitQueueSize) {

  /** The JDBC URL Flyway migrates through (the server itself uses the reactive client). */
  public String jdbcUrl() {
    return "jdbc:postgresql://" + host + ":" + port + "/" + database;
  }

  /** The same settings in another schema: tests give each run a schema of its own. */
  public DatabaseConfig withSchema(String otherSchema) {
    return new DatabaseConfig(
        host, port, database, user, password, otherSchema, poolSize, maxWaitQueueSize);
  }

  @Override
  public String toString() {
    return "postgresql://" + user + "@" + host + ":" + port + "/" + database + "?schema=" + schema;
  }
}
