package dev.canvasagent.board;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Keys as tldraw's fractional indexing makes them: ordered as plain strings, always valid. */
class FractionalIndexTest {

  @Test
  void theFirstKeyIsA0() {
    assertEquals("a0", FractionalIndex.after(null));
  }

  @Test
  void afterIncrementsTheIntegerPart() {
    assertEquals("a1", FractionalIndex.after("a0"));
    assertEquals("aA", FractionalIndex.after("a9"));
  }

  @Test
  void afterTheLastOneDigitIntegerComesTheFirstTwoDigitOne() {
    assertEquals("b00", FractionalIndex.after("az"));
  }

  @Test
  void betweenTwoNeighboursIsAFractionStrictlyBetweenThem() {
    String middle = FractionalIndex.between("a0", "a1");

    assertTrue(FractionalIndex.isValid(middle), middle);
    assertTrue("a0".compareTo(middle) < 0, middle);
    assertTrue(middle.compareTo("a1") < 0, middle);
    assertEquals("a0V", middle, "the same key tldraw's generateKeyBetween('a0', 'a1') gives");
  }

  @Test
  void betweenAKeyAndItsMidpointStillFitsBetween() {
    String below = "a0";
    String above = "a1";
    for (int i = 0; i < 20; i++) {
      String middle = FractionalIndex.between(below, above);
      assertTrue(FractionalIndex.isValid(middle), middle);
      assertTrue(
          below.compareTo(middle) < 0 && middle.compareTo(above) < 0,
          below + " < " + middle + " < " + above);
      above = middle;
    }
  }

  @Test
  void twoHundredSuccessiveKeysStrictlyIncreaseAndAreAllValid() {
    List<String> keys = new ArrayList<>();
    String key = null;
    for (int i = 0; i < 200; i++) {
      key = FractionalIndex.after(key);
      keys.add(key);
    }

    for (int i = 0; i < keys.size(); i++) {
      assertTrue(FractionalIndex.isValid(keys.get(i)), keys.get(i));
      if (i > 0) {
        assertTrue(
            keys.get(i - 1).compareTo(keys.get(i)) < 0, keys.get(i - 1) + " < " + keys.get(i));
      }
    }
  }

  @Test
  void aKeyBeforeTheFirstSortsBelowIt() {
    String before = FractionalIndex.between(null, "a0");

    assertTrue(FractionalIndex.isValid(before), before);
    assertTrue(before.compareTo("a0") < 0, before);
    assertEquals("Zz", before, "the same key tldraw's generateKeyBetween(null, 'a0') gives");
  }

  @Test
  void boundsOutOfOrderAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> FractionalIndex.between("a1", "a0"));
    assertThrows(IllegalArgumentException.class, () -> FractionalIndex.between("a1", "a1"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"a0", "a1", "a1V", "b10", "Zz"})
  void tldrawKeysAreValid(String key) {
    assertTrue(FractionalIndex.isValid(key), key);
  }

  @ParameterizedTest
  @ValueSource(strings = {"a10", "a00", "a", "1", ""})
  void malformedKeysAreInvalid(String key) {
    assertFalse(FractionalIndex.isValid(key), key);
  }
}
