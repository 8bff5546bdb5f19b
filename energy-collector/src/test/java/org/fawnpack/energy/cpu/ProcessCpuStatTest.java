package org.fawnpack.energy.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProcessCpuStatTest {

  private static ProcessCpuStat parse(String line) {
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    return ProcessCpuStat.parse(bytes, bytes.length);
  }

  private static String line(String comm) {
    return "4242 (" + comm + ") R 17 4242 4242 0 -1 4194304 1 0 0 0 11 22 33 44 -2 0 1 0 "
        + "98765 100 10 18446744073709551615\n";
  }

  @Test
  void parse_nameWithParentheses_fieldsReadAfterLastParenthesis() {
    for (String comm : new String[] {"java", "Web Content", "a) b (c", ") ) 1 2 3", "(x)"}) {
      assertEquals(new ProcessCpuStat(4242, 17, 110, 98765), parse(line(comm)), comm);
    }
  }

  @Test
  void parse_malformedLine_rejected() {
    assertNull(parse(""));
    assertNull(parse("4242 (java R 17"));
    assertNull(parse("4242 (java) R 17 4242 4242 0 -1 4194304 1 0 0 0 11 22"));
    assertNull(parse("4242 (java) R 17 4242 4242 0 -1 4194304 1 0 0 0 x 22 33 44 20 0 1 0 9"));
    assertNull(parse("abc (java) R 17 4242 4242 0 -1 4194304 1 0 0 0 1 2 3 4 20 0 1 0 9"));
  }

  @Test
  void parse_noTrailingNewline_tolerated() {
    assertEquals(new ProcessCpuStat(7, 1, 10, 5),
        parse("7 (init) S 1 7 7 0 -1 0 0 0 0 0 1 2 3 4 20 0 1 0 5"));
  }
}
