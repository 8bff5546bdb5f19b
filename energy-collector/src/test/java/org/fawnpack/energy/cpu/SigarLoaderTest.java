package org.fawnpack.energy.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

class SigarLoaderTest {

  @Test
  void libraryFor_knownPlatforms_mappedToNativeJarEntries() {
    assertEquals(Optional.of("libsigar-amd64-linux-1.6.4.so"),
        SigarLoader.libraryResource("Linux", "amd64"));
    assertEquals(Optional.of("libsigar-amd64-linux-1.6.4.so"),
        SigarLoader.libraryResource("Linux", "x86_64"));
    assertEquals(Optional.of("libsigar-x86-linux-1.6.4.so"),
        SigarLoader.libraryResource("Linux", "i386"));
    assertEquals(Optional.of("libsigar-universal64-macosx-1.6.4.dylib"),
        SigarLoader.libraryResource("Mac OS X", "x86_64"));
    assertEquals(Optional.of("libsigar-amd64-solaris-1.6.4.so"),
        SigarLoader.libraryResource("SunOS", "amd64"));
  }

  @Test
  void libraryFor_armOrWindows_none() {
    for (String[] platform : new String[][] {{"Linux", "aarch64"}, {"Linux", "arm"},
        {"Mac OS X", "aarch64"}, {"Windows 11", "amd64"}, {"Linux", "riscv64"}}) {
      assertEquals(Optional.empty(), SigarLoader.libraryResource(platform[0], platform[1]),
          String.join("/", platform));
    }
  }

  @Test
  void load_unknownPlatform_unavailableWithReason() {
    SigarLoader.Status status =
        SigarLoader.attempt("Linux", "aarch64", getClass().getClassLoader());
    assertFalse(status.available());
    assertTrue(status.detail().contains("Linux/aarch64"), status.detail());
  }

  @Test
  void load_nativeJarMissing_unavailable() {
    ClassLoader empty = new ClassLoader(null) {
    };
    SigarLoader.Status status = SigarLoader.attempt("Linux", "amd64", empty);
    assertFalse(status.available());
    assertTrue(status.detail().contains("not on the classpath"), status.detail());
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  @EnabledIfSystemProperty(named = "os.arch", matches = "amd64|x86_64")
  void load_linuxAmd64_loadsOncePerJvm() {
    SigarLoader.Status status = SigarLoader.ensureLoaded();
    assertTrue(status.available(), status.detail());
    assertSame(status, SigarLoader.ensureLoaded());
    Path dir = Path.of(System.getProperty(SigarLoader.PATH_PROPERTY));
    assertTrue(Files.isDirectory(dir), dir.toString());
  }
}
