package org.fawnpack.energy.cpu;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import org.hyperic.sigar.Sigar;

/**
 * Makes SIGAR's native library loadable: picks the library for this OS and CPU from the
 * {@code sigar:native} jar on the classpath, copies it into a private temporary directory once per
 * JVM and points {@value #PATH_PROPERTY} at it.
 *
 * <p>Decides by platform BEFORE touching any SIGAR class: without a matching library SIGAR would
 * try to load the jar itself as a library (printing a stack trace) and stay broken for the rest of
 * the JVM. Failures are reported as an unavailable {@link Status}, never thrown. If
 * {@value #PATH_PROPERTY} is already set (an operator's own build, e.g. for ARM), it is used as is.
 */
public final class SigarLoader {
  public static final String PATH_PROPERTY = "org.hyperic.sigar.path";
  private static final String VERSION = "1.6.4";

  private static Status status; // guarded by SigarLoader.class

  private SigarLoader() {
  }

  /** Whether SIGAR can be used, and why not. {@code detail} is a human-readable sentence. */
  public record Status(boolean available, String detail) {
    static Status unavailable(String detail) {
      return new Status(false, detail);
    }
  }

  /** Loads SIGAR for this JVM on the first call; later calls return the same answer. */
  public static synchronized Status ensureLoaded() {
    if (status == null) {
      String preset = System.getProperty(PATH_PROPERTY);
      status = preset != null && !preset.isEmpty()
          ? probe("from " + PATH_PROPERTY + "=" + preset)
          : attempt(System.getProperty("os.name", ""), System.getProperty("os.arch", ""),
              SigarLoader.class.getClassLoader());
    }
    return status;
  }

  /**
   * The resource name of the native library for a platform, as {@code os.name}/{@code os.arch}
   * spell it; empty where the 1.6.4 native jar has none (ARM, Windows, ...).
   */
  static Optional<String> libraryResource(String osName, String osArch) {
    String os = osName.toLowerCase(Locale.ROOT);
    String arch = osArch.toLowerCase(Locale.ROOT);
    boolean x64 = arch.equals("amd64") || arch.equals("x86_64");
    boolean x86 = arch.equals("x86") || arch.equals("i386") || arch.equals("i486")
        || arch.equals("i586") || arch.equals("i686");
    String name = null;
    if (os.equals("linux") && x64) {
      name = "libsigar-amd64-linux-" + VERSION + ".so";
    } else if (os.equals("linux") && x86) {
      name = "libsigar-x86-linux-" + VERSION + ".so";
    } else if (os.startsWith("mac") && x64) {
      name = "libsigar-universal64-macosx-" + VERSION + ".dylib";
    } else if ((os.equals("sunos") || os.equals("solaris")) && x64) {
      name = "libsigar-amd64-solaris-" + VERSION + ".so";
    }
    return Optional.ofNullable(name);
  }

  /**
   * One loading attempt for the given platform, resolving the library through {@code loader}.
   * Returns before touching SIGAR when there is nothing to load, so tests can call it safely.
   */
  static Status attempt(String osName, String osArch, ClassLoader loader) {
    Optional<String> resource = libraryResource(osName, osArch);
    if (resource.isEmpty()) {
      return Status.unavailable("SIGAR " + VERSION + " has no native library for " + osName + "/"
          + osArch);
    }
    Path dir;
    try (InputStream in = loader.getResourceAsStream(resource.get())) {
      if (in == null) {
        return Status.unavailable(resource.get() + " is not on the classpath (the "
            + "org.fusesource:sigar:" + VERSION + ":native jar is missing)");
      }
      dir = Files.createTempDirectory("fawn-sigar-"); // rwx------ on POSIX
      Path library = dir.resolve(resource.get());
      dir.toFile().deleteOnExit(); // registered first, so deleted after the file
      library.toFile().deleteOnExit();
      Files.copy(in, library);
    } catch (IOException | RuntimeException e) {
      return Status.unavailable("could not extract " + resource.get() + ": " + e);
    }
    System.setProperty(PATH_PROPERTY, dir.toString());
    return probe(resource.get() + " extracted to " + dir);
  }

  /** Loads the library by using it once; a wrong or broken library surfaces here, not later. */
  private static Status probe(String source) {
    try {
      Sigar sigar = new Sigar();
      try {
        sigar.getCpu();
      } finally {
        sigar.close();
      }
      return new Status(true, "SIGAR " + VERSION + " loaded, " + source);
    } catch (Exception | LinkageError e) {
      return Status.unavailable("SIGAR failed to load (" + source + "): " + e);
    }
  }
}
