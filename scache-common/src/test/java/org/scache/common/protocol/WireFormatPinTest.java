package org.scache.common.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.scache.common.testing.SampleMessages;

/**
 * Pins the bytes of every sample message as they were encoded when the file was written, so that a
 * change to the message types or the codec that changes the wire format fails here. WORKER_STATS is
 * left out: its counters are a map whose order differs between runs.
 */
class WireFormatPinTest {

  @Test
  void everySampleMessage_encodesToItsPinnedBytes() throws IOException {
    Map<String, String> pinned = pinned();
    int checked = 0;
    for (MessageType type : MessageType.values()) {
      if (type == MessageType.WORKER_STATS) {
        continue;
      }
      ByteBuf out = Unpooled.buffer();
      try {
        MessageCodec.encode(SampleMessages.of(type), out);
        assertEquals(pinned.get(type.name()), ByteBufUtil.hexDump(out), type + " changed on the wire");
        checked++;
      } finally {
        out.release();
      }
    }
    assertEquals(pinned.size(), checked, "every pinned message type still exists");
    assertTrue(checked > 40);
  }

  private static Map<String, String> pinned() throws IOException {
    try (InputStream in = WireFormatPinTest.class.getResourceAsStream("/wire/sample-messages.hex")) {
      Map<String, String> byType = new LinkedHashMap<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
        if (!line.isBlank()) {
          String[] parts = line.split(" ", 2);
          byType.put(parts[0], parts.length > 1 ? parts[1] : "");
        }
      }
      return byType;
    }
  }
}
