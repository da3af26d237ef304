package dev.canvasagent.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.Await;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import org.junit.jupiter.api.Test;

/**
 * One registry per Vert.x instance: two nodes in one JVM (the tests' clusters) never count into each
 * other's meters, and every caller on one instance gets the same meters.
 */
class NodeRegistryTest {
  @Test
  void twoInstancesInOneJvmHaveRegistriesOfTheirOwn() {
    Vertx first = NodeRegistry.vertx(new VertxOptions());
    Vertx second = NodeRegistry.vertx(new VertxOptions());
    try {
      CanvasMetrics one = CanvasMetrics.of(first);
      CanvasMetrics two = CanvasMetrics.of(second);
      assertSame(one, CanvasMetrics.of(first), "the same meters for every caller on one instance");
      assertNotSame(one.registry(), two.registry());
      one.runEnded("done", null);
      assertTrue(one.scrape().contains("canvas_agent_runs_total{code=\"none\",state=\"done\"} 1"));
      assertTrue(!two.scrape().contains("canvas_agent_runs_total"), two.scrape());
      Await.result(first.eventBus().request("nobody.listens", "x").otherwiseEmpty());
      assertTrue(
          one.scrape().contains("vertx_eventbus_"), "Vert.x's own meters are in its registry");
    } finally {
      Await.result(first.close());
      Await.result(second.close());
    }
  }

  @Test
  void aVertxBuiltWithoutMetricsStillGetsTheDomainsMetersOnce() {
    Vertx plain = Vertx.vertx();
    try {
      CanvasMetrics meters = CanvasMetrics.of(plain);
      assertSame(meters, CanvasMetrics.of(plain));
      meters.rateLimited("requests_per_second");
      assertTrue(
          meters
              .scrape()
              .contains("canvas_agent_rate_limit_refusals_total{limit=\"requests_per_second\"} 1"),
          meters.scrape());
      assertEquals(false, meters.scrape().contains("vertx_http_server"));
    } finally {
      Await.result(plain.close());
    }
  }
}
