package dev.canvasagent;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import dev.canvasagent.verticle.CanvasVerticle;
import io.vertx.core.Deployable;
import io.vertx.core.Verticle;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBus;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The package rules docs/architecture.md describes, checked on the server's classes (not the tests'):
 * one package per verticle and none importing another's, the store below the verticles, only
 * {@code CanvasAgent} deploying them, and no cycles among the top-level packages. Each rule is a method, not an
 * {@code ArchRule} field: surefire's {@code -Dtest=ArchitectureTest} runs methods and silently skips fields.
 */
@AnalyzeClasses(packages = "dev.canvasagent", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
  private static final String ROOT = "dev.canvasagent";

  /** The eight verticles' packages (each with its subpackages), by the name of the package. */
  static final List<String> VERTICLE_PACKAGES =
      List.of(
          "bridge",
          "scheduler",
          "runner",
          "sanitizer",
          "patch",
          "screenshot",
          "document",
          "docagent");

  @ArchTest
  static void eachVerticleHasAPackageOfItsOwnAndTheListAboveNamesThemAll(JavaClasses classes) {
    List<JavaClass> verticles =
        classes.stream()
            .filter(
                type ->
                    type.isAssignableTo(CanvasVerticle.class)
                        && !type.getModifiers().contains(JavaModifier.ABSTRACT))
            .toList();
    Set<String> packages =
        verticles.stream()
            .map(ArchitectureTest::topLevelPackage)
            .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(
        new TreeSet<>(VERTICLE_PACKAGES),
        packages,
        "the packages of the classes extending CanvasVerticle");
    assertEquals(packages.size(), verticles.size(), "one verticle per package: " + verticles);
  }

  @ArchTest
  static void aVerticlesPackageNeverImportsAnotherVerticlesPackage(JavaClasses classes) {
    for (String verticle : VERTICLE_PACKAGES) {
      String[] others =
          VERTICLE_PACKAGES.stream()
              .filter(other -> !other.equals(verticle))
              .map(ArchitectureTest::tree)
              .toArray(String[]::new);
      noClasses()
          .that()
          .resideInAPackage(tree(verticle))
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(others)
          .because(
              "verticles talk only over the event bus; what two of them share lives in a package of its own "
                  + "(bus, doctools, store, ...)")
          .check(classes);
    }
  }

  @ArchTest
  static void theStoreNeverImportsAVerticlesPackage(JavaClasses classes) {
    noClasses()
        .that()
        .resideInAPackage(tree("store"))
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            VERTICLE_PACKAGES.stream().map(ArchitectureTest::tree).toArray(String[]::new))
        .because("the store is below the verticles: they read and write it, it knows none of them")
        .check(classes);
  }

  @ArchTest
  static void onlyCanvasAgentDeploysVerticles(JavaClasses classes) {
    noClasses()
        .that()
        .doNotHaveFullyQualifiedName(ROOT + ".CanvasAgent")
        .and()
        .doNotHaveFullyQualifiedName(ROOT + ".App")
        .should()
        .callMethodWhere(
            target(name("deployVerticle")).and(target(owner(assignableTo(Vertx.class)))))
        .because("CanvasAgent deploys the verticles in order and undeploys them in reverse")
        .check(classes);
  }

  @ArchTest
  static void onlyCanvasAgentConstructsVerticles(JavaClasses classes) {
    noClasses()
        .that()
        .doNotHaveFullyQualifiedName(ROOT + ".CanvasAgent")
        .and()
        .doNotHaveFullyQualifiedName(ROOT + ".App")
        .should()
        .callConstructorWhere(
            DescribedPredicate.describe(
                "a verticle's constructor (other than super(...))",
                call -> isVerticle(call.getTargetOwner()) && !isSuperCall(call)))
        .because(
            "the verticles are wired (given their store, models and configuration) in one place, CanvasAgent")
        .check(classes);
  }

  /**
   * The bus contract: requests go through an {@code Endpoint}, one-way messages through a
   * {@code Notice}, room topics through {@code RoomTopic.publish}, and consumers through
   * {@code CanvasVerticle}. The exceptions listen to a room's topic for as long as a room or a run
   * lasts: the bridge's relay to browsers, the screenshot verticle's wait for the host's answer, the
   * document agent's watch of its lease, the bridge's relay of a browser's screenshot, and the MCP
   * layer's room listener ({@code mcp.RoomTopicListener}: a resource subscription, and a {@code
   * canvas_agent_run} call's watch of its run to its end, since the scheduler offers no await of a run
   * over the bus); and
   * the bridge's clustered addresses between the nodes that share a room ({@code
   * bridge.ClusterLink}).
   */
  @ArchTest
  static void onlyTheBusContractTouchesTheEventBus(JavaClasses classes) {
    noClasses()
        .that()
        .doNotHaveFullyQualifiedName(ROOT + ".bus.Endpoint")
        .and()
        .doNotHaveFullyQualifiedName(ROOT + ".bus.Notice")
        .and()
        .doNotHaveFullyQualifiedName(ROOT + ".bus.RoomTopic")
        .and()
        .doNotHaveFullyQualifiedName(ROOT + ".verticle.CanvasVerticle")
        .and()
        .doNotHaveFullyQualifiedName(ROOT + ".bridge.RoomHub")
        .and()
        .doNotHaveFullyQualifiedName(ROOT + ".bridge.ClusterLink")
        .and()
        .doNotHaveFullyQualifiedName(ROOT + ".bridge.InboundFrames")
        .and()
        .doNotHaveFullyQualifiedName(ROOT + ".screenshot.ScreenshotVerticle")
        .and()
        .doNotHaveFullyQualifiedName(ROOT + ".docagent.DocumentAgentRun")
        .and()
        .doNotHaveFullyQualifiedName(ROOT + ".mcp.RoomTopicListener")
        .should()
        .callMethodWhere(
            target(name("request"))
                .or(target(name("send")))
                .or(target(name("publish")))
                .or(target(name("consumer")))
                .or(target(name("localConsumer")))
                .and(target(owner(assignableTo(EventBus.class)))))
        .because(
            "every request and reply on the bus is a record with one JSON mapping (bus/Address)")
        .check(classes);
  }

  @ArchTest
  static void theTopLevelPackagesHaveNoCycles(JavaClasses classes) {
    slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(classes);
  }

  private static boolean isVerticle(JavaClass type) {
    return type.isAssignableTo(Verticle.class) || type.isAssignableTo(Deployable.class);
  }

  /** A subclass's constructor calling its superclass's ({@code super(...)} or {@code this(...)}). */
  private static boolean isSuperCall(JavaConstructorCall call) {
    return call.getOrigin() instanceof JavaConstructor
        && call.getOriginOwner().isAssignableTo(call.getTargetOwner().getName());
  }

  private static String tree(String topLevel) {
    return ROOT + "." + topLevel + "..";
  }

  private static String topLevelPackage(JavaClass type) {
    String rest = type.getPackageName().substring(ROOT.length() + 1);
    int dot = rest.indexOf('.');
    return dot < 0 ? rest : rest.substring(0, dot);
  }
}
