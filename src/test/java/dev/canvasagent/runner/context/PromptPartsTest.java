package dev.canvasagent.runner.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.support.TestServer;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The registry of prompt parts: what the builder, the gatherer, the budgets and the system prompt go by. */
class PromptPartsTest {
  @Test
  void eachPartHasItsOwnNameAndPriority() {
    List<PromptPart<?>> parts = PromptParts.STANDARD;
    assertEquals(
        parts.size(), new HashSet<>(PromptParts.names()).size(), PromptParts.names().toString());
    assertEquals(
        parts.size(),
        parts.stream().map(PromptPart::priority).distinct().count(),
        "priorities decide the order");
  }

  @Test
  void everyConfiguredBudgetNamesARegisteredPart() {
    Map<String, Integer> budgets = TestServer.config(Map.of()).context().budgets();

    assertTrue(
        PromptParts.names().containsAll(budgets.keySet()),
        budgets.keySet() + " vs " + PromptParts.names());
  }

  @Test
  void theSystemPromptListsEveryPartThatDescribesItselfInPriorityOrder() {
    String described = PromptParts.described();

    int at = -1;
    for (PromptPart<?> part : PromptParts.byPriority(PromptParts.STANDARD)) {
      if (part.describedAs() != null) {
        int next = described.indexOf(part.describedAs());
        assertTrue(next > at, part.name() + " in " + described);
        at = next;
      }
    }
    assertTrue(described.endsWith(", and sometimes a screenshot"), described);
  }
}
