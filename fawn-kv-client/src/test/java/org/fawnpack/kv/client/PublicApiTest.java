package org.fawnpack.kv.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.yetus.audience.InterfaceAudience;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The client jar's audience marks, read from its compiled classes: every public type is either
 * in a package marked private or marked itself, and what is marked public shows, in its public
 * signatures, only JDK types and other public-marked ones (a member marked private or limited
 * to named users may show more). So a change that puts a server or wire type into the API fails
 * here, not in a user's build.
 */
class PublicApiTest {
  private static final List<Class<?>> CLASSES = new ArrayList<>();

  @BeforeAll
  static void loadTheJarsClasses() throws IOException, URISyntaxException {
    Path root = Path.of(FawnKvClient.class.getProtectionDomain().getCodeSource().getLocation()
        .toURI());
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
        String name = root.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
        if (name.endsWith("package-info")) {
          continue;
        }
        try {
          CLASSES.add(Class.forName(name, false, PublicApiTest.class.getClassLoader()));
        } catch (ClassNotFoundException e) {
          throw new AssertionError(name + " listed but not loadable", e);
        }
      }
    }
    assertTrue(CLASSES.size() > 50, "the client jar's classes found: " + CLASSES.size());
  }

  @Test
  void everyPublicTypeHasAnAudience() {
    Set<String> unmarked = new TreeSet<>();
    for (Class<?> type : CLASSES) {
      if (Modifier.isPublic(type.getModifiers()) && !type.isMemberClass()
          && !type.isAnonymousClass() && !type.isLocalClass() && audience(type) == null
          && audience(type.getPackage()) == null) {
        unmarked.add(type.getName());
      }
    }
    assertEquals(Set.of(), unmarked, "public types with no audience (type or package)");
  }

  @Test
  void thePublicApiShowsOnlyPublicTypes() {
    List<Class<?>> api = CLASSES.stream().filter(PublicApiTest::isPublicApi).toList();
    assertTrue(api.contains(FawnKvClient.class), "FawnKvClient is marked public: " + api);
    Set<String> leaks = new TreeSet<>();
    for (Class<?> type : api) {
      if (!Modifier.isPublic(type.getModifiers())) {
        continue;
      }
      check(type.getGenericSuperclass(), type.getName() + " extends", leaks);
      for (Type implemented : type.getGenericInterfaces()) {
        check(implemented, type.getName() + " implements", leaks);
      }
      for (Field field : type.getDeclaredFields()) {
        if (visible(field.getModifiers()) && audience(field) == null) {
          check(field.getGenericType(), type.getName() + "." + field.getName(), leaks);
        }
      }
      List<Executable> members = new ArrayList<>(List.of(type.getDeclaredMethods()));
      for (Constructor<?> c : type.getDeclaredConstructors()) {
        members.add(c);
      }
      for (Executable member : members) {
        if (!visible(member.getModifiers()) || member.isSynthetic() || audience(member) != null) {
          continue;
        }
        String where = type.getName() + "." + member.getName();
        if (member instanceof Method method) {
          check(method.getGenericReturnType(), where + " returns", leaks);
        }
        for (Type parameter : member.getGenericParameterTypes()) {
          check(parameter, where + " takes", leaks);
        }
        for (Type thrown : member.getGenericExceptionTypes()) {
          check(thrown, where + " throws", leaks);
        }
      }
    }
    assertEquals(Set.of(), leaks, "non-public types in the public API");
  }

  private static boolean visible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  private static void check(Type type, String where, Set<String> leaks) {
    if (type == null) {
      return;
    }
    if (type instanceof Class<?> c) {
      while (c.isArray()) {
        c = c.getComponentType();
      }
      if (!c.isPrimitive() && !c.getName().startsWith("java.") && !c.getName().startsWith("javax.")
          && !isPublicApi(c)) {
        leaks.add(where + " " + c.getName());
      }
    } else if (type instanceof ParameterizedType p) {
      check(p.getRawType(), where, leaks);
      for (Type argument : p.getActualTypeArguments()) {
        check(argument, where, leaks);
      }
    } else if (type instanceof GenericArrayType a) {
      check(a.getGenericComponentType(), where, leaks);
    } else if (type instanceof WildcardType w) {
      for (Type bound : w.getUpperBounds()) {
        check(bound, where, leaks);
      }
      for (Type bound : w.getLowerBounds()) {
        check(bound, where, leaks);
      }
    } else if (!(type instanceof TypeVariable<?>)) {
      leaks.add(where + " " + type);
    }
  }

  /** Marked public itself or nested in a type that is. */
  private static boolean isPublicApi(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getEnclosingClass()) {
      if (c.isAnnotationPresent(InterfaceAudience.Public.class)) {
        return true;
      }
    }
    return false;
  }

  private static Object audience(AnnotatedElement element) {
    if (element == null) {
      return null;
    }
    for (Class<? extends java.lang.annotation.Annotation> mark : List.of(
        InterfaceAudience.Public.class, InterfaceAudience.LimitedPrivate.class,
        InterfaceAudience.Private.class)) {
      if (element.isAnnotationPresent(mark)) {
        return element.getAnnotation(mark);
      }
    }
    return null;
  }
}
