package dev.canvasagent.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.Endpoint;
import dev.canvasagent.bus.Notice;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md's bus table names every address of {@link Address} with its request and reply
 * records, as the declarations say; on a difference the test prints the rows to paste.
 */
class BusContractDocTest {
  static final Path PAGE = Path.of("docs/architecture.md");
  static final String SECTION = "## The bus contract";

  @Test
  void theBusTableNamesEveryAddressWithItsRecords() throws IOException {
    List<String> declared = declaredRows();
    String page = Files.readString(PAGE);
    int start = page.indexOf(SECTION);
    int end = page.indexOf("\n## ", start + SECTION.length());
    String section = start < 0 ? "" : page.substring(start, end < 0 ? page.length() : end);
    List<String> documented =
        section
            .lines()
            .filter(line -> line.startsWith("| `"))
            .map(BusContractDocTest::firstThreeCells)
            .toList();
    assertEquals(
        String.join("\n", declared),
        String.join("\n", documented),
        PAGE
            + " ("
            + SECTION
            + ") must list these rows (address, request, reply) in this order; the last"
            + " column is yours:\n"
            + declared.stream().map(row -> row + " … |").collect(Collectors.joining("\n")));
  }

  /** One row per declaration, in the order of {@code Address}, then the health probe. */
  static List<String> declaredRows() {
    List<String> rows = new ArrayList<>();
    Arrays.stream(Address.class.getDeclaredFields())
        .filter(field -> Modifier.isStatic(field.getModifiers()))
        .filter(field -> field.getType() == Endpoint.class || field.getType() == Notice.class)
        .forEach(field -> rows.add(row(field)));
    Endpoint<?, ?> health = Address.health("<name>");
    rows.add("| `" + health.address() + "` | `HealthProbe` | `HealthReport` |");
    return rows;
  }

  private static String row(Field field) {
    Type[] types = ((ParameterizedType) field.getGenericType()).getActualTypeArguments();
    String address;
    try {
      Object declaration = field.get(null);
      address =
          declaration instanceof Endpoint<?, ?> endpoint
              ? endpoint.address()
              : ((Notice<?>) declaration).address();
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
    String reply = types.length > 1 ? "`" + simpleName(types[1]) + "`" : "(none: one-way)";
    return "| `" + address + "` | `" + simpleName(types[0]) + "` | " + reply + " |";
  }

  private static String simpleName(Type type) {
    String name = type.getTypeName();
    return name.substring(name.lastIndexOf('.') + 1).replace('$', '.');
  }

  private static String firstThreeCells(String line) {
    String[] cells = line.split("\\|", -1);
    return "|" + cells[1] + "|" + cells[2] + "|" + cells[3] + "|";
  }
}
