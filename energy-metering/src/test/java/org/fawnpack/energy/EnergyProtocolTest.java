package org.fawnpack.energy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.commons.codec.binary.Base64;
import org.junit.jupiter.api.Test;

class EnergyProtocolTest {

  /** What YARN's AuxiliaryServiceHelper.setServiceDataIntoEnv does with a service's metadata. */
  private static String asYarnPutsItInTheEnvironment(ByteBuffer metadata) {
    return Base64.encodeBase64String(metadata.array());
  }

  @Test
  void environmentVariable_isYarnsNameForService() {
    assertEquals("NM_AUX_SERVICE_fawn_energy", EnergyProtocol.ENV_METADATA);
  }

  @Test
  void encodePort_fourBigEndianBytes() {
    ByteBuffer buffer = EnergyProtocol.encodePort(8042); // 0x1F6A
    assertEquals(4, buffer.remaining());
    assertEquals(4, buffer.array().length, "YARN encodes the whole backing array");
    assertArrayEquals(new byte[] {0, 0, 0x1F, 0x6A}, buffer.array());
    assertArrayEquals(new byte[] {0, 0, (byte) 0xFF, (byte) 0xFF},
        EnergyProtocol.encodePort(65535).array());
  }

  @Test
  void encodeThenDecode_portsThroughYarnsBase64() {
    for (int port : List.of(1, 80, 1023, 8042, 13562, 49152, 65535)) {
      String env = asYarnPutsItInTheEnvironment(EnergyProtocol.encodePort(port));
      assertEquals(port, EnergyProtocol.decodePort(env), env);
    }
    // commons-codec's answer for 8042, worked out by hand: 00 00 1F 6A → "AAAfag=="
    assertEquals("AAAfag==", asYarnPutsItInTheEnvironment(EnergyProtocol.encodePort(8042)));
    assertEquals(8042, EnergyProtocol.decodePort("AAAfag=="));
  }

  @Test
  void decodePort_surroundingWhitespace_ignored() {
    assertEquals(8042, EnergyProtocol.decodePort("AAAfag==\r\n"));
    assertEquals(8042, EnergyProtocol.decodePort("  AAAfag== "));
  }

  @Test
  void decodePort_otherLength_rejectedWithByteCount() {
    for (int length : List.of(0, 1, 2, 3, 5, 8)) {
      String env = Base64.encodeBase64String(new byte[length]);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> EnergyProtocol.decodePort(env), env);
      assertTrue(e.getMessage().contains(length + " bytes"), e.getMessage());
      assertTrue(e.getMessage().contains(EnergyProtocol.ENV_METADATA), e.getMessage());
    }
  }

  @Test
  void decodePort_outsideOneTo65535_rejected() {
    for (int port : List.of(0, -1, -8042, 65536, Integer.MAX_VALUE, Integer.MIN_VALUE)) {
      String env = Base64.encodeBase64String(ByteBuffer.allocate(4).putInt(port).array());
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> EnergyProtocol.decodePort(env), Integer.toString(port));
      assertTrue(e.getMessage().contains("port " + port), e.getMessage());
    }
  }

  @Test
  void decodePort_notBase64_illegalArgument() {
    assertThrows(IllegalArgumentException.class, () -> EnergyProtocol.decodePort("*not*"));
    assertThrows(IllegalArgumentException.class, () -> EnergyProtocol.decodePort("AAAfa"));
  }
}
