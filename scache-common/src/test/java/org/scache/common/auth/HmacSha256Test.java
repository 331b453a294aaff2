package org.scache.common.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** The MAC equals the JCE's HmacSHA256: on RFC 4231's test cases and on random keys and messages. */
class HmacSha256Test {
  private static final HexFormat HEX = HexFormat.of();

  private static byte[] mac(byte[] key, byte[] message) {
    HmacSha256 m = new HmacSha256();
    m.init(key);
    m.update(message);
    return m.doFinal();
  }

  @Test
  void rfc4231_testCases_giveTheirMacs() {
    // case 1: a 20-byte key
    assertEquals("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
        HEX.formatHex(mac(HEX.parseHex("0b".repeat(20)), "Hi There".getBytes(StandardCharsets.US_ASCII))));
    // case 2: a key shorter than the output
    assertEquals("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
        HEX.formatHex(mac("Jefe".getBytes(StandardCharsets.US_ASCII),
            "what do ya want for nothing?".getBytes(StandardCharsets.US_ASCII))));
    // case 6: a key longer than the block, hashed first
    assertEquals("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
        HEX.formatHex(mac(HEX.parseHex("aa".repeat(131)),
            "Test Using Larger Than Block-Size Key - Hash Key First".getBytes(StandardCharsets.US_ASCII))));
  }

  @Test
  void randomKeysAndMessages_equalTheJcesMac_acrossReuse() throws Exception {
    Random random = new Random(7);
    HmacSha256 reused = new HmacSha256();
    Mac jce = Mac.getInstance("HmacSHA256");
    for (int i = 0; i < 200; i++) {
      byte[] key = new byte[1 + random.nextInt(150)];
      byte[] message = new byte[1 + random.nextInt(300)];
      random.nextBytes(key);
      random.nextBytes(message);
      jce.init(new SecretKeySpec(key, "HmacSHA256"));
      reused.init(key);
      // in three pieces, through each kind of update
      int split = 1 + message.length / 3;
      reused.update(message[0]);
      reused.update(ByteBuffer.wrap(message, 1, split - 1));
      reused.update(Arrays.copyOfRange(message, split, message.length));
      assertArrayEquals(jce.doFinal(message), reused.doFinal(), "case " + i);
    }
  }
}
