package org.scache.common.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.scache.common.testing.SampleMessages;

/**
 * Every message type names a reader, and that reader reads back, to the last byte, what the type's
 * record wrote: decoding is a lookup of the type, for every type there is.
 */
class MessageTypeReadersTest {

  private static byte[] written(Message m) {
    WireBuffer bytes = new WireBuffer(64);
    m.write(new WireWriter(bytes));
    return Arrays.copyOf(bytes.array(), bytes.length());
  }

  @ParameterizedTest
  @EnumSource(MessageType.class)
  void everyType_readsBackTheSampleItsRecordWrote(MessageType type) throws MalformedMessageException {
    Message sample = SampleMessages.of(type);
    WireReader in = new WireReader(ByteBuffer.wrap(written(sample)));
    Message read = type.read(in);
    assertFalse(in.hasMore(), type + " left bytes unread");
    assertEquals(type, read.type());
    assertEquals(sample, read);
  }

  @ParameterizedTest
  @EnumSource(MessageType.class)
  void everyType_refusesABytePastItsFields(MessageType type) {
    byte[] bytes = written(SampleMessages.of(type));
    byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
    assertThrows(MalformedMessageException.class, () -> MessageCodec.decode(type, ByteBuffer.wrap(longer)));
  }
}
