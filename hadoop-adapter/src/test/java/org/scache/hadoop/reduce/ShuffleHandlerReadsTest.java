package org.scache.hadoop.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleHeader;
import org.junit.jupiter.api.Test;

class ShuffleHandlerReadsTest {
  @Test
  void header_readsWhatHadoopsShuffleServiceWrites() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new ShuffleHeader("attempt_1_0001_m_000003_1", 123_456L, 7_890_123L, 5).write(new DataOutputStream(bytes));
    bytes.write(new byte[] {42});

    DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
    ShuffleHandlerReads.Header header = ShuffleHandlerReads.Header.read(in);

    assertEquals(new ShuffleHandlerReads.Header("attempt_1_0001_m_000003_1", 123_456L, 7_890_123L, 5), header);
    assertEquals(42, in.read(), "the segment's first byte follows the header");
  }
}
