package dev.canvasagent.catalog;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * A verb with only its schema and its class ({@link NudgeVerb}, in a catalog of the tests' own) is
 * exercised by {@link CatalogNeverThrowsTest} with nothing written for it there, and a bug in it is
 * found.
 */
class NewVerbIsExercisedTest {
  @Test
  void catalogNeverThrowsReachesAVerbItWasNeverToldAbout() {
    String stats = new CatalogNeverThrowsTest().exercise(List.of(NudgeVerb.entry()));

    assertTrue(stats.startsWith("nudge: "), stats);
  }

  @Test
  void andFindsWhatItThrows() {
    AssertionFailedError failure =
        assertThrows(
            AssertionFailedError.class,
            () -> new CatalogNeverThrowsTest().exercise(List.of(NudgeVerb.broken())));

    assertTrue(
        failure.getMessage().startsWith("nudge input #")
            && failure.getMessage().contains("IllegalStateException: a frame was nudged"),
        failure.getMessage());
  }
}
